import CInterception
import Interception
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `body` on a new thread and waits for the thread to exit.
private func onNewThread(_ body: @escaping @Sendable () -> Void) throws {
    final class Box: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var thread = pthread_t()
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    let status = pthread_create(
        &thread, nil,
        { context in
            Unmanaged<Box>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, context)
    try #require(status == 0)
    pthread_join(thread, nil)
}

@Suite("The runtime as a whole")
struct RuntimeTests {
    /// A class whose `make` closure returns a new instance of `made`, and a C-style call of it
    /// that bypasses Swift's send (as C code would call it).
    private func factory(making made: RuntimeClass) throws -> @Sendable () -> Void {
        let factory = try RuntimeClass.define(uniqueName("PoolFactory")) { c in
            try c.method("make") { (this: RuntimeObject) -> RuntimeObject? in made.new() }
        }
        let object = factory.new()
        return {
            typealias Make = @convention(c) (OpaquePointer?, OpaquePointer?) -> OpaquePointer?
            let sel = Selector("make").pointer
            let result = unsafeBitCast(ic_msg_lookup(object.pointer, sel), to: Make.self)(object.pointer, sel)
            precondition(result != nil)
        }
    }

    @Test("objects returned to C outside a Swift send stay alive until the enclosing pool drains")
    func autoreleasepool() throws {
        let made = try plainClass("Pooled")
        let callFromC = try factory(making: made)
        Runtime.autoreleasepool {
            callFromC()
            #expect(made.liveInstanceCount == 1)
            #expect(Runtime.pendingReturnedObjectCount == 1)
            Runtime.autoreleasepool {
                callFromC()
                #expect(Runtime.pendingReturnedObjectCount == 2)
            }
            #expect(Runtime.pendingReturnedObjectCount == 1)
            #expect(made.liveInstanceCount == 1)
        }
        #expect(Runtime.pendingReturnedObjectCount == 0)
        #expect(made.liveInstanceCount == 0)
    }

    @Test("objects still parked when a thread exits are released")
    func threadExitReleases() throws {
        let made = try plainClass("ThreadPooled")
        let callFromC = try factory(making: made)
        try onNewThread {
            callFromC()
            callFromC()
        }
        #expect(made.liveInstanceCount == 0)
    }

    @Test("the counters and version come from the C runtime")
    func counters() throws {
        let classesBefore = Runtime.classCount
        let cls = try RuntimeClass.define(uniqueName("Counters")) { c in
            try c.method(Selector(uniqueName("brandNewSelector"))) { (this: RuntimeObject) in }
        }
        #expect(Runtime.classCount > classesBefore)
        #expect(Runtime.selectorCount >= 16)
        let objects = (0..<100).map { _ in cls.new() }
        #expect(Runtime.liveObjectCount >= objects.count)
        #expect(Runtime.version == String(cString: ic_runtime_version()))
        #expect(Runtime.version.split(separator: ".").count == 3)
    }
}
