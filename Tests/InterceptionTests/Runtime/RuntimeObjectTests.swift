import CInterception
import Interception
import Testing

@Suite("Objects and their lifetime")
struct RuntimeObjectTests {
    @Test("handles to one object compare equal, hash alike, and each holds a reference")
    func handlesShareIdentity() throws {
        let cls = try plainClass("Handles")
        let object = cls.new()
        #expect(object.retainCount == 1)
        let second = RuntimeObject(retaining: object.pointer)
        #expect(object.retainCount == 2)
        #expect(second == object)
        #expect(second !== object)
        #expect(Set([object, second]).count == 1)
        #expect(second.hashValue == object.hashValue)
        #expect(object != cls.new())
        _ = consume second
        #expect(object.retainCount == 1)
        #expect("\(object)".hasPrefix("<\(cls.name): 0x"))
    }

    @Test("the object lives until the last reference, C or Swift, goes away; then dealloc runs once")
    func lastReferenceDeallocates() throws {
        let log = EventLog()
        let cls = try RuntimeClass.define(uniqueName("Lifetime")) { c in
            try c.dealloc { this in log.append("dealloc") }
        }
        var handle: RuntimeObject? = cls.new()
        let cReference = handle!.retainedPointer()
        handle = nil
        #expect(log.all.isEmpty)
        #expect(cls.liveInstanceCount == 1)
        let adopted = RuntimeObject(adopting: cReference)  // takes over the C reference
        #expect(adopted.retainCount == 1)
        _ = consume adopted
        #expect(log.all == ["dealloc"])
        #expect(cls.liveInstanceCount == 0)
    }

    @Test("dealloc overrides run subclass first, then superclass, then the root releases associations")
    func deallocOrder() throws {
        let log = EventLog()
        let key = AssociationKey()
        let attachment = try RuntimeClass.define(uniqueName("Attachment")) { c in
            try c.dealloc { this in log.append("attachment dealloc") }
        }
        let base = try RuntimeClass.define(uniqueName("DeallocBase")) { c in
            try c.dealloc { this in
                // Still whole: associations are there, messages work.
                log.append(
                    "base dealloc, attachment \(this.associatedObject(forKey: key) == nil ? "gone" : "present")"
                )
            }
        }
        let sub = try RuntimeClass.define(uniqueName("DeallocSub"), superclass: base) { c in
            try c.method("name") { (this: RuntimeObject) -> Int32 in 7 }
            try c.dealloc { this in
                let name: Int32 = try! this.send("name")
                log.append("sub dealloc \(name), deallocating \(this.isDeallocating)")
            }
        }
        do {
            let object = sub.new()
            try object.setAssociatedObject(attachment.new(), forKey: key)
            #expect(attachment.liveInstanceCount == 1)
        }
        #expect(
            log.all == [
                "sub dealloc 7, deallocating true", "base dealloc, attachment present", "attachment dealloc",
            ])
        #expect(sub.liveInstanceCount == 0)
        #expect(attachment.liveInstanceCount == 0)
    }

    @Test("inside dealloc, weak references already read nil and retaining cannot resurrect")
    func deallocCannotResurrect() throws {
        let log = EventLog()
        let weak = WeakRuntimeObject(nil)
        let cls = try RuntimeClass.define(uniqueName("NoResurrect")) { c in
            try c.dealloc { this in
                log.append("weak \(weak.object == nil ? "nil" : "set")")
                let extra = RuntimeObject(retaining: this.pointer)
                log.append("extra reference, deallocating \(extra.isDeallocating)")
            }
        }
        do {
            let object = cls.new()
            weak.object = object
        }
        // One dealloc, despite the reference taken and dropped inside it.
        #expect(log.all == ["weak nil", "extra reference, deallocating true"])
        #expect(cls.liveInstanceCount == 0)
    }

    @Test("a dealloc closure that lets `this` escape traps instead of leaving a dangling handle")
    func escapingThisTraps() async {
        await #expect(processExitsWith: .failure) {
            final class Holder: @unchecked Sendable { var object: RuntimeObject? }
            let holder = Holder()
            let cls = try RuntimeClass.define("EscapingThis") { c in
                try c.dealloc { this in holder.object = this }
            }
            _ = cls.new()
        }
    }

    @Test("a Swift dealloc in a subclass runs before a C dealloc (escape hatch) in its superclass")
    func swiftOverC() throws {
        // The C dealloc logs through the EventLog whose address is in the base's storage, then
        // calls super itself, as escape-hatch deallocs must.
        let cDealloc: @convention(c) (OpaquePointer?, OpaquePointer?) -> Void = { this, cmd in
            let address = ic_object_storage(this)!.load(as: UnsafeRawPointer.self)
            Unmanaged<EventLog>.fromOpaque(address).takeUnretainedValue().append("c")
            var target = ic_super(receiver: this, super_class: ic_class_root())
            let superDealloc = unsafeBitCast(
                ic_msg_lookup_super(&target, cmd),
                to: (@convention(c) (OpaquePointer?, OpaquePointer?) -> Void).self)
            superDealloc(this, cmd)
        }
        let log = EventLog()
        let base = try RuntimeClass.define(uniqueName("CDealloc"), storageSize: 8) { c in
            try c.method("dealloc", encoding: "v@:", imp: cDealloc)
        }
        let sub = try RuntimeClass.define(uniqueName("SwiftDealloc"), superclass: base) { c in
            try c.dealloc { this in log.append("swift") }
        }
        do {
            let object = sub.new()
            try object.storage(for: base).storeBytes(
                of: Unmanaged.passUnretained(log).toOpaque(), as: UnsafeMutableRawPointer.self)
        }
        #expect(log.all == ["swift", "c"])
        #expect(sub.liveInstanceCount == 0)
    }

    @Test("runtimeClass, actualClass, responds(to:) and isKind(of:) answer as the runtime does")
    func introspection() throws {
        let base = try RuntimeClass.define(uniqueName("IntroBase")) { c in
            try c.method("hello") { (this: RuntimeObject) in }
        }
        let sub = try plainClass("IntroSub", superclass: base)
        let object = sub.new()
        #expect(object.runtimeClass == sub)
        #expect(object.actualClass == sub)
        #expect(object.responds(to: "hello"))
        #expect(object.responds(to: "retainCount"))
        #expect(!object.responds(to: "goodbye"))
        #expect(object.isKind(of: base))
        #expect(object.isKind(of: .root))
        #expect(!base.new().isKind(of: sub))
    }

    @Test("creating and releasing many objects leaves no instance behind")
    func noLeak() throws {
        let key = AssociationKey()
        let made = try plainClass("LeakMade")
        let cls = try RuntimeClass.define(uniqueName("Leak")) { c in
            try c.method("child") { (this: RuntimeObject) -> RuntimeObject? in made.new() }
            try c.dealloc { this in }
        }
        for i in 0..<5_000 {
            let object = cls.new()
            let child: RuntimeObject? = try object.send("child")
            try object.setAssociatedObject(child, forKey: key)
            try object.setAssociatedValue(
                "value \(i)", forKey: AssociationKey(address: UnsafeRawPointer(made.pointer)))
            let weak = WeakRuntimeObject(object)
            #expect(weak.object != nil)
        }
        #expect(cls.liveInstanceCount == 0)
        #expect(made.liveInstanceCount == 0)
    }

    @Test("objects are created, sent to and released on many threads without loss")
    func concurrentLifetimes() async throws {
        let counter = DeinitCounter()
        let cls = try RuntimeClass.define(uniqueName("Threads")) { c in
            try c.method("make") { (this: RuntimeObject) -> RuntimeObject? in this.runtimeClass.new() }
            try c.dealloc { this in _ = counter.make() }
        }
        let shared = cls.new()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<500 {
                        let made: RuntimeObject? = try? shared.send("make")
                        let weak = WeakRuntimeObject(made)
                        _ = weak.object
                    }
                }
            }
        }
        #expect(cls.liveInstanceCount == 1)
        #expect(counter.count == 8 * 500)
    }
}
