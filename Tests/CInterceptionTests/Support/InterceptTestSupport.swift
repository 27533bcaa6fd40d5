// Helpers for the interception engine's suites: an observer context that records what it sees,
// C observer callbacks that feed it, and counter snapshots.
import CInterception
import Glibc
import Synchronization
import Testing

/// Records the events an observer, an original method or a test sees, from any thread.
final class Recorder: Sendable {
    private let state = TestLock<[String]>([])
    private let valueState = TestLock<[(String, [UInt8])]>([])
    private let releases = Atomic<Int>(0)
    private let calls = Atomic<Int>(0)

    func record(_ event: String) {
        state.withLock { $0.append(event) }
        calls.add(1, ordering: .relaxed)
    }

    var events: [String] { state.withLock { $0 } }

    /// Records a value's bytes under a tag (and the tag as an event).
    func record(_ tag: String, bytes: UnsafeRawPointer?, count: Int) {
        let value = bytes.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
        valueState.withLock { $0.append((tag, value)) }
        record(tag)
    }

    /// The values recorded under `tag`, in order.
    func values(_ tag: String) -> [[UInt8]] {
        valueState.withLock { $0.filter { $0.0 == tag }.map(\.1) }
    }
    var count: Int { calls.load(ordering: .relaxed) }
    var releaseCount: Int { releases.load(ordering: .relaxed) }
    func reset() { state.withLock { $0.removeAll() } }
    func noteReleased() { releases.add(1, ordering: .relaxed) }

    /// A +1 context for C: released by `recorderRelease`.
    func retainedContext() -> UnsafeMutableRawPointer { Unmanaged.passRetained(self).toOpaque() }

    static func from(_ context: UnsafeMutableRawPointer?) -> Recorder {
        Unmanaged<Recorder>.fromOpaque(context!).takeUnretainedValue()
    }
}

typealias ObserverCallback = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void
typealias DeallocCallback = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void
typealias ReleaseCallback = @convention(c) (UnsafeMutableRawPointer?) -> Void

let recorderRelease: ReleaseCallback = { context in
    let recorder = Unmanaged<Recorder>.fromOpaque(context!)
    recorder.takeUnretainedValue().noteReleased()
    recorder.release()
}

/// Records "before <selector>".
let recordBefore: ObserverCallback = { call, context in
    Recorder.from(context).record("before \(String(cString: ic_sel_name(ic_invocation_selector(call))))")
}

/// Records "after <selector>".
let recordAfter: ObserverCallback = { call, context in
    Recorder.from(context).record("after \(String(cString: ic_sel_name(ic_invocation_selector(call))))")
}

/// Records "before" with the bytes of argument 2 (the first after self and _cmd), if any.
let recordFirstArgument: ObserverCallback = { call, context in
    let sig = ic_invocation_signature(call)
    let size = ic_signature_argument_count(sig) > 2 ? ic_signature_argument_size(sig, 2) : 0
    Recorder.from(context).record("before", bytes: ic_invocation_argument_pointer(call, 2), count: size)
}

/// Records "after" with the bytes of the return value.
let recordReturnValue: ObserverCallback = { call, context in
    let size = ic_signature_return_size(ic_invocation_signature(call))
    Recorder.from(context).record("after", bytes: ic_invocation_return_pointer(call), count: size)
}

/// Records "deallocating <what `class` answers>": the object is still whole and can be messaged.
let recordDeallocating: DeallocCallback = { object, context in
    let cls = lookup(object, "class", as: ClassIMP.self)(object, sel("class"))
    Recorder.from(context).record("deallocating \(String(cString: ic_class_name(cls)))")
}

/// Records "deallocated" (the object is gone: only its address may be used).
let recordDeallocated: DeallocCallback = { _, context in
    Recorder.from(context).record("deallocated")
}

/// Adds an observer whose context is `recorder` (retained until the observer is released).
@discardableResult
func observe(
    _ obj: ID?, _ name: String, _ phase: ic_observer_phase, _ callback: ObserverCallback,
    _ recorder: Recorder
) throws -> ic_observer_token {
    var token: ic_observer_token = 0
    let status = ic_intercept_add_observer(
        obj, sel(name), phase, callback, recorder.retainedContext(), recorderRelease, &token)
    if status != IC_OK { recorderRelease(Unmanaged.passUnretained(recorder).toOpaque()) }
    try #require(status == IC_OK, "\(String(cString: ic_status_name(status))): \(lastErrorMessage)")
    return token
}

@discardableResult
func observeDealloc(
    _ obj: ID?, _ phase: ic_observer_phase, _ callback: DeallocCallback, _ recorder: Recorder
) throws -> ic_observer_token {
    var token: ic_observer_token = 0
    let status = ic_intercept_add_dealloc_observer(
        obj, phase, callback, recorder.retainedContext(), recorderRelease, &token)
    try #require(status == IC_OK, "\(String(cString: ic_status_name(status))): \(lastErrorMessage)")
    return token
}

/// The engine counters of one original class.
struct ClassCounters: Equatable, CustomStringConvertible {
    var subclasses = 0
    var forwardingClasses = 0
    var optimized = 0
    var forwarded = 0
    var liveObjects = 0
    var observers = 0
    var intercepted = 0

    init(_ cls: CLS?) {
        var c = ic_intercept_counters()
        ic_intercept_get_class_counters(cls, &c)
        subclasses = c.dynamic_subclasses
        forwardingClasses = c.forwarding_classes
        optimized = c.optimized_methods
        forwarded = c.forwarded_methods
        liveObjects = c.live_objects
        observers = c.live_observers
        intercepted = c.intercepted_objects
    }

    init(
        subclasses: Int = 0, forwardingClasses: Int = 0, optimized: Int = 0, forwarded: Int = 0,
        liveObjects: Int = 0, observers: Int = 0, intercepted: Int = 0
    ) {
        self.subclasses = subclasses
        self.forwardingClasses = forwardingClasses
        self.optimized = optimized
        self.forwarded = forwarded
        self.liveObjects = liveObjects
        self.observers = observers
        self.intercepted = intercepted
    }

    var description: String {
        "subclasses \(subclasses), forwarding classes \(forwardingClasses), optimized \(optimized), "
            + "forwarded \(forwarded), live objects \(liveObjects), observers \(observers), "
            + "intercepted \(intercepted)"
    }
}

/// Status name of a call, for readable expectations.
func statusName(_ status: ic_status) -> String { String(cString: ic_status_name(status)) }

// Methods used by several suites.
let addOneIMP: Int32Int32IMP = { _, _, x in x &+ 1 }
let voidIMP: VoidIMP = { _, _ in }

/// What one observer saw, and how many times its context was released.
final class Tally: Sendable {
    let calls = Atomic<Int>(0)
    let releases = Atomic<Int>(0)

    var seen: Int { calls.load(ordering: .relaxed) }
    var released: Int { releases.load(ordering: .relaxed) }

    /// A +1 context for C, balanced by `tallyRelease`.
    func context() -> UnsafeMutableRawPointer { Unmanaged.passRetained(self).toOpaque() }

    static func from(_ context: UnsafeMutableRawPointer?) -> Tally {
        Unmanaged<Tally>.fromOpaque(context!).takeUnretainedValue()
    }
}

/// Counts a call (as a call observer) or a death (as a dealloc observer: same C shape).
let tallyCall: ObserverCallback = { _, context in Tally.from(context).calls.add(1, ordering: .relaxed) }

let tallyRelease: ReleaseCallback = { context in
    let tally = Unmanaged<Tally>.fromOpaque(context!)
    tally.takeUnretainedValue().releases.add(1, ordering: .relaxed)
    tally.release()
}

/// Adds a call observer counting into `tally`; returns the status and the token.
func addTally(_ obj: ID?, _ s: SEL?, _ phase: ic_observer_phase, _ tally: Tally) -> (
    ic_status, ic_observer_token
) {
    var token: ic_observer_token = 0
    let context = tally.context()
    let status = ic_intercept_add_observer(obj, s, phase, tallyCall, context, tallyRelease, &token)
    if status != IC_OK { tallyRelease(context) }
    return (status, token)
}

/// Adds a dealloc observer counting into `tally`.
func addDeallocTally(_ obj: ID?, _ phase: ic_observer_phase, _ tally: Tally) -> (ic_status, ic_observer_token)
{
    var token: ic_observer_token = 0
    let context = tally.context()
    let status = ic_intercept_add_dealloc_observer(obj, phase, tallyCall, context, tallyRelease, &token)
    if status != IC_OK { tallyRelease(context) }
    return (status, token)
}

/// A value guarded by a pthread mutex. (Not `Synchronization.Mutex`: on Linux it is built on
/// futexes ThreadSanitizer does not see, which makes every guarded access look like a race.)
final class TestLock<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only touched with `mutex` held.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
