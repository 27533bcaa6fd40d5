import CInterception
import CInterceptionTestSupport
import Synchronization
import Testing

/// Counts deallocs of the "counted" test classes (each test uses its own counter slot, found
/// through the object's storage).
private typealias CounterPointer = UnsafeMutablePointer<Int>

private let countingDealloc: VoidIMP = { this, cmd in
    let storage = ic_object_storage(this)!
    storage.load(as: CounterPointer.self).pointee += 1
    // Still whole while deallocating, and already flagged.
    storage.load(as: CounterPointer.self).advanced(by: 1).pointee = ic_object_is_deallocating(this) ? 1 : 0
    var sup = ic_super(receiver: this, super_class: superclassForSuperSend(this, cmd))
    fn(ic_msg_lookup_super(&sup, cmd), as: VoidIMP.self)(this, cmd)
}

/// Deallocs of the concurrent-release test: its objects die on several threads at once, so their
/// count must be atomic (a shared plain counter is a data race TSan rightly reports).
private let concurrentDeallocs = Atomic<Int>(0)

private let atomicCountingDealloc: VoidIMP = { this, cmd in
    concurrentDeallocs.add(1, ordering: .relaxed)
    var sup = ic_super(receiver: this, super_class: superclassForSuperSend(this, cmd))
    fn(ic_msg_lookup_super(&sup, cmd), as: VoidIMP.self)(this, cmd)
}

/// Retains and releases itself during dealloc, and releases itself once more (a bug the runtime
/// must survive, as objc4 does): none of this may deallocate it twice.
private let resurrectingDealloc: VoidIMP = { this, cmd in
    let storage = ic_object_storage(this)!
    storage.load(as: CounterPointer.self).pointee += 1
    ic_retain(this)
    ic_release(this)
    ic_release(this)
    var sup = ic_super(receiver: this, super_class: superclassForSuperSend(this, cmd))
    fn(ic_msg_lookup_super(&sup, cmd), as: VoidIMP.self)(this, cmd)
}

private let countingRetain: ObjectIMP = { this, cmd in
    ic_object_storage(this)!.load(as: CounterPointer.self).pointee += 1
    var sup = ic_super(receiver: this, super_class: superclassForSuperSend(this, cmd))
    return fn(ic_msg_lookup_super(&sup, cmd), as: ObjectIMP.self)(this, cmd)
}

private let countingRelease: VoidIMP = { this, cmd in
    ic_object_storage(this)!.load(as: CounterPointer.self).advanced(by: 1).pointee += 1
    var sup = ic_super(receiver: this, super_class: superclassForSuperSend(this, cmd))
    fn(ic_msg_lookup_super(&sup, cmd), as: VoidIMP.self)(this, cmd)
}

private func withCounters<R>(_ body: (CounterPointer) throws -> R) rethrows -> R {
    let counters = CounterPointer.allocate(capacity: 2)
    counters.initialize(repeating: 0, count: 2)
    defer { counters.deallocate() }
    return try body(counters)
}

private func newObject(_ cls: CLS, counters: CounterPointer) throws -> ID {
    let obj = try #require(ic_class_create_instance(cls))
    ic_object_storage(obj)!.storeBytes(of: counters, as: CounterPointer.self)
    return obj
}

@Suite("Objects and their lifecycle")
struct ObjectLifecycleTests {
    @Test("a new object has a count of one, its class, and zeroed storage")
    func newObjectIsZeroed() throws {
        let cls = try makeClass("LNew", storage: 32)
        let obj = try #require(ic_class_create_instance(cls))
        #expect(ic_object_retain_count(obj) == 1)
        #expect(ic_object_get_class(obj) == cls)
        #expect(String(cString: ic_object_class_name(obj)) == String(cString: ic_class_name(cls)))
        #expect(ic_class_live_instance_count(cls) == 1)
        let storage = UnsafeRawBufferPointer(start: ic_object_storage(obj), count: 32)
        #expect(storage.allSatisfy { $0 == 0 })
        #expect(!ic_object_is_deallocating(obj))
        ic_release(obj)
        #expect(ic_class_live_instance_count(cls) == 0)
    }

    @Test("retain and release change the count; the last release sends dealloc once")
    func retainReleaseDealloc() throws {
        let cls = try makeClass("LDealloc", storage: 8, methods: [("dealloc", imp(countingDealloc), "v@:")])
        try withCounters { counters in
            let obj = try newObject(cls, counters: counters)
            #expect(ic_retain(obj) == obj)
            #expect(ic_object_retain_count(obj) == 2)
            ic_release(obj)
            #expect(counters[0] == 0)
            ic_release(obj)
            #expect(counters[0] == 1)
            #expect(counters[1] == 1)  // it was flagged deallocating inside dealloc
            #expect(ic_class_live_instance_count(cls) == 0)
        }
    }

    @Test("retain and release through messages behave as the functions")
    func retainReleaseMessages() throws {
        let cls = try makeClass("LMessages", storage: 8, methods: [("dealloc", imp(countingDealloc), "v@:")])
        try withCounters { counters in
            let obj = try newObject(cls, counters: counters)
            #expect(lookup(obj, "retain", as: ObjectIMP.self)(obj, sel("retain")) == obj)
            typealias CountIMP = @convention(c) (ID?, SEL?) -> UInt64
            #expect(lookup(obj, "retainCount", as: CountIMP.self)(obj, sel("retainCount")) == 2)
            lookup(obj, "release", as: VoidIMP.self)(obj, sel("release"))
            lookup(obj, "release", as: VoidIMP.self)(obj, sel("release"))
            #expect(counters[0] == 1)
        }
    }

    @Test("retaining and releasing inside dealloc neither resurrects nor deallocates twice")
    func deallocCannotResurrect() throws {
        let cls = try makeClass(
            "LResurrect", storage: 8, methods: [("dealloc", imp(resurrectingDealloc), "v@:")])
        try withCounters { counters in
            let obj = try newObject(cls, counters: counters)
            ic_release(obj)
            #expect(counters[0] == 1)
            #expect(ic_class_live_instance_count(cls) == 0)
        }
    }

    @Test("NULL is ignored by retain and release")
    func nilRetainRelease() {
        #expect(ic_retain(nil) == nil)
        ic_release(nil)
        #expect(ic_object_retain_count(nil) == 0)
        #expect(ic_object_get_class(nil) == nil)
        #expect(ic_object_storage(nil) == nil)
    }

    @Test("classes overriding retain and release receive the messages")
    func customRetainRelease() throws {
        let base = try makeClass(
            "LCustomRR", storage: 8,
            methods: [("retain", imp(countingRetain), "@@:"), ("release", imp(countingRelease), "v@:")])
        let sub = try makeClass("LCustomRRSub", superclass: base)
        try withCounters { counters in
            let obj = try newObject(sub, counters: counters)
            ic_retain(obj)
            ic_release(obj)
            #expect(counters[0] == 1)
            #expect(counters[1] == 1)
            ic_release(obj)  // the last one, through the override too
            #expect(counters[1] == 2)
            #expect(ic_class_live_instance_count(sub) == 0)
        }
    }

    @Test("an override of retain added after registration is honoured by subclasses")
    func customRetainAddedLater() throws {
        let base = try makeClass("LLateRR", storage: 8)
        let sub = try makeClass("LLateRRSub", superclass: base)
        #expect(ic_class_add_method(base, sel("retain"), imp(countingRetain), "@@:") == IC_OK)
        try withCounters { counters in
            let obj = try newObject(sub, counters: counters)
            ic_retain(obj)
            #expect(counters[0] == 1)
            ic_release(obj)
            ic_release(obj)
        }
    }

    @Test("dealloc order: the class's dealloc, then associated objects, with weak references already nil")
    func deallocOrder() throws {
        let log = ict_log_create()!
        defer { ict_log_destroy(log) }
        let parent = ict_logged_new(log, "parent")
        let child = ict_logged_new(log, "child")
        #expect(ic_object_set_associated(parent, "key", child, IC_ASSOCIATION_RETAIN) == IC_OK)
        ic_release(child)  // now owned by the association
        let weak = UnsafeMutablePointer<ID?>.allocate(capacity: 1)
        weak.initialize(to: nil)
        defer { weak.deallocate() }
        #expect(ic_weak_store(weak, parent) == IC_OK)
        ict_logged_watch_weak(child, weak, "parent")
        ic_release(parent)
        #expect(String(cString: ict_log_text(log)) == "dealloc parent, dealloc child, weak parent=nil")
        #expect(weak.pointee == nil)
        #expect(ic_weak_load_retained(weak) == nil)
        ic_weak_destroy(weak)
    }

    @Test("creating and releasing many objects leaves no live instance")
    func manyObjectsNoLeak() throws {
        let cls = try makeClass("LMany", storage: 24)
        let created = try #require(ic_class_create_instance(cls))
        #expect(ic_object_live_count() >= 1)  // global: other suites create objects in parallel
        ic_release(created)
        for _ in 0..<10_000 {
            let obj = ic_class_create_instance(cls)
            ic_retain(obj)
            ic_release(obj)
            ic_release(obj)
        }
        #expect(ic_class_live_instance_count(cls) == 0)
    }

    @Test("objects released on other threads are deallocated exactly once")
    func concurrentReleases() async throws {
        let cls = try makeClass(
            "LConcurrent", storage: 8, methods: [("dealloc", imp(atomicCountingDealloc), "v@:")])
        let counters = CounterPointer.allocate(capacity: 2)
        counters.initialize(repeating: 0, count: 2)
        defer { counters.deallocate() }
        let objects = try (0..<200).map { _ in try newObject(cls, counters: counters) }
        for obj in objects {
            for _ in 0..<7 { ic_retain(obj) }
        }
        let bits = objects.map { UInt(bitPattern: $0) }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for b in bits { ic_release(OpaquePointer(bitPattern: b)) }
                }
            }
        }
        // Each object had 8 references and 8 releases: exactly one of them, on whichever
        // thread, is the last and runs dealloc.
        #expect(concurrentDeallocs.load(ordering: .relaxed) == 200)
        #expect(ic_class_live_instance_count(cls) == 0)
    }
}
