import Interception
import Testing

@Suite("Weak references")
struct WeakRuntimeObjectTests {
    @Test("a weak reference reads the object while it lives, nil after, and does not keep it alive")
    func zeroing() throws {
        let cls = try plainClass("Weakly")
        var object: RuntimeObject? = cls.new()
        let weak = WeakRuntimeObject(object)
        #expect(object?.retainCount == 1)
        #expect(weak.object == object)
        object = nil
        #expect(weak.object == nil)
        #expect(cls.liveInstanceCount == 0)
    }

    @Test("a weak reference can be pointed at another object or emptied")
    func reassign() throws {
        let cls = try plainClass("Reassigned")
        let a = cls.new()
        let b = cls.new()
        let weak = WeakRuntimeObject(a)
        weak.object = b
        #expect(weak.object == b)
        weak.object = nil
        #expect(weak.object == nil)
        #expect(WeakRuntimeObject(nil).object == nil)
    }

    @Test("weak references to one object, read on many threads while it dies, see it or nil")
    func concurrentReads() async throws {
        let cls = try plainClass("WeakRace")
        for _ in 0..<50 {
            var object: RuntimeObject? = cls.new()
            let weak = WeakRuntimeObject(object)
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        for _ in 0..<50 {
                            if let seen = weak.object {
                                #expect(seen.actualClass == cls)
                            }
                        }
                    }
                }
                object = nil
            }
            #expect(weak.object == nil)
        }
        #expect(cls.liveInstanceCount == 0)
    }
}
