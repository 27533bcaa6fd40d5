// ThisHandles: the `this` handles of method closures, borrowed for the call and reused.
import CInterception

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Makes and ends the `this` of each method-closure call.
///
/// Why: a fresh retaining handle per call was most of a call to a Swift-closure method (perf on
/// `send_to_swift_method`: allocation and free about 30 %, the object's retain and release about
/// 18 %). So `this` is *borrowed*, like `self` in a Swift or Objective-C method: the sender keeps
/// the receiver alive for the call, and the handle takes no reference while the closure runs.
/// And a handle nobody else references when the call ends is kept, one per thread, for the
/// thread's next call.
///
/// Invariants:
/// - A handle that may outlive its call owns a reference: when the body returns, a handle that
///   anything but the call references (strongly, weakly or unowned: a weak or unowned reference
///   can become a strong one later, on any thread) retains the object, before the method
///   returns, while the sender still keeps it alive.
/// - A handle referenced by nothing but the call (exclusive) owns nothing and is kept as the
///   thread's spare, or dropped if a nested call's handle already is; rebinding a spare to
///   another receiver cannot be seen through any reference, since none exists.
/// - Spares own no reference; a thread's spare is released when the thread exits.
///
/// Where the state lives: the thread's spare and the "exclusive word" below are C thread-locals
/// (`ic_binding_thread.h`), reached inline: a pthread key cost a lazy-global check and a call
/// per method call (perf on `send_to_swift_method`: about 5 ns of 60).
///
/// How exclusivity is read: a Swift object's header keeps its strong count, its unowned count
/// and whether it has a side table (made by its first weak reference) in one word. A handle
/// made by `makeHandle` is exclusive then, so that word, read at that moment, is the value an
/// exclusive handle shows (`spare_state`); when a call ends, a handle whose word equals it is
/// exclusive, in one load, where the runtime's count functions were five calls (perf: about
/// 8 ns of 60). Any other word takes the runtime's functions (`isExclusive`), which decide
/// exactly. A one-time self-test (``wordTracksReferences``) checks that the word changes with
/// each kind of reference; if it did not, `spare_state` stays 0, which no live object's word is,
/// and every call takes the runtime's functions.
@usableFromInline
enum ThisHandles {
    /// The key whose destructor releases an exiting thread's spare (its value is only a marker:
    /// the spare itself is in the thread's C words).
    private static let exitKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { _ in
            guard let words = ic_binding_thread_words_get() else { return }
            if let spare = words.pointee.spare {
                words.pointee.spare = nil
                Unmanaged<RuntimeObject>.fromOpaque(spare).release()
            }
        }
        precondition(status == 0, "pthread_key_create failed (\(status))")
        return key
    }()

    /// The offset of a Swift object's reference-count word (after its metadata pointer).
    @inlinable static var countWordOffset: Int { MemoryLayout<UnsafeRawPointer>.size }

    /// Runs `body` with a borrowed handle to `receiver` (the thread's spare, rebound, or a new
    /// one), then ends the call: an escaped handle takes its reference; one that nothing else
    /// references becomes the thread's spare (unless a nested call's handle already is).
    ///
    /// The call's own reference to the handle is kept as an `Unmanaged` and lent to `body`
    /// guaranteed: as a strong local, the compiler kept a retain and release pair per call.
    @inlinable @inline(__always)
    static func call<R>(_ receiver: OpaquePointer, methodClass: OpaquePointer?, _ body: (RuntimeObject) -> R)
        -> R
    {
        let handle = begin(receiver, methodClass: methodClass)
        let result = handle._withUnsafeGuaranteedRef { body($0) }
        end(handle)
        return result
    }

    /// The first half of ``call(_:methodClass:_:)``: the call's handle to `receiver`, to be lent
    /// to the body guaranteed (`_withUnsafeGuaranteedRef`) and given to ``end(_:)`` when the body
    /// returns or throws. For callers whose body throws: a `defer` ends the call without the
    /// closure and error box ``call(_:methodClass:_:)`` would need around it.
    @inlinable @inline(__always)
    static func begin(_ receiver: OpaquePointer, methodClass: OpaquePointer?) -> Unmanaged<RuntimeObject> {
        // Without a spare, one is made and bound as a spare is (binding a new handle to its own
        // receiver again changes nothing): written as an if/else, the compiler made the common
        // path jump over the rare one, as `end` did (callgrind, one instruction per call of
        // swift_hook_instead_typed and of swift_hook_before_typed). The thread's words are
        // reached by C inline functions on the thread-local itself (ic_binding_thread.h), not
        // through a pointer to them: making that pointer is a load, and it was kept in a saved
        // register across the call (callgrind: three memory operations per call).
        var spare = ic_binding_spare_take()
        if _slowPath(spare == nil) { spare = makeHandle(receiver, methodClass: methodClass).toOpaque() }
        let handle = Unmanaged<RuntimeObject>.fromOpaque(spare.unsafelyUnwrapped)
        handle._withUnsafeGuaranteedRef { $0.rebind(borrowing: receiver, methodClass: methodClass) }
        return handle
    }

    /// Ends a call begun by ``begin(_:methodClass:)``.
    @inlinable @inline(__always)
    static func end(_ handle: Unmanaged<RuntimeObject>) {
        // Kept, the call's reference moves to the thread.
        if _slowPath(!ic_binding_spare_keep(handle.toOpaque(), countWord(handle.toOpaque()))) {
            return finish(handle)
        }
    }

    /// A new borrowed handle (the thread had no spare). Notes the word of an exclusive handle
    /// for the thread, and arms the thread's exit cleanup, the first time.
    @usableFromInline @inline(never)
    static func makeHandle(_ receiver: OpaquePointer, methodClass: OpaquePointer?) -> Unmanaged<RuntimeObject>
    {
        let handle = Unmanaged.passRetained(RuntimeObject(borrowing: receiver, methodClass: methodClass))
        let words = ic_binding_thread_words_get().unsafelyUnwrapped
        if words.pointee.spare_state == 0, wordTracksReferences {
            words.pointee.spare_state = countWord(handle.toOpaque())
        }
        if pthread_getspecific(exitKey) == nil {
            pthread_setspecific(exitKey, UnsafeRawPointer(bitPattern: 1))
        }
        return handle
    }

    /// Ends a call whose handle the one-load test did not show exclusive: decides exactly, then
    /// keeps the handle as the spare, or has it take its reference, or drops it.
    @usableFromInline @inline(never)
    static func finish(_ handle: Unmanaged<RuntimeObject>) {
        let words = ic_binding_thread_words_get().unsafelyUnwrapped
        let keep = handle._withUnsafeGuaranteedRef { this -> Bool in
            guard isExclusive(this) else {
                // Kept (strongly, weakly or unowned) by the closure: a handle that may outlive
                // the call owns a reference, taken while the sender keeps the object alive.
                this.takeOwnership()
                return false
            }
            return words.pointee.spare == nil
        }
        if keep {
            words.pointee.spare = handle.toOpaque()
        } else {
            handle.release()
        }
    }

    /// The reference-count word of the object at `object`.
    @inlinable @inline(__always)
    static func countWord(_ object: UnsafeMutableRawPointer) -> UInt64 {
        ic_binding_load_word_relaxed(UnsafeRawPointer(object) + countWordOffset)
    }

    /// Whether the call's reference is the only reference of any kind to `handle`, by the
    /// runtime's count functions. Weak and unowned references are read before and after the
    /// strong count: a reference another thread holds can only be turned into another kind from
    /// one it already holds, so if none is seen at either end and no other strong one in
    /// between, there was none throughout, and none can appear (nothing else can reach the
    /// handle).
    private static func isExclusive(_ handle: RuntimeObject) -> Bool {
        _getWeakRetainCount(handle) == 1 && _getUnownedRetainCount(handle) == 1
            && _getRetainCount(handle) == 1
            && _getWeakRetainCount(handle) == 1 && _getUnownedRetainCount(handle) == 1
    }

    /// Whether an object's count word changes with every kind of reference taken to it, and
    /// comes back when a strong one is dropped: what the one-load test relies on. Checked once
    /// on an object of our own, against the runtime's count functions.
    private static let wordTracksReferences: Bool = {
        let probe = Unmanaged.passRetained(Probe())
        defer { probe.release() }
        let object = probe.toOpaque()
        let exclusive = countWord(object)
        guard exclusive != 0 else { return false }
        // Each reference is held in a global, so that the optimizer cannot drop it (an
        // `Unmanaged` retain and release pair, it did).
        probeHolder.withLock { $0 = probe.takeUnretainedValue() }
        let strong = countWord(object)
        probeHolder.withLock { $0 = nil }
        guard strong != exclusive, countWord(object) == exclusive else { return false }
        probeHolder.withLock { $0 = UnownedHolder(probe.takeUnretainedValue()) }
        let withUnowned = countWord(object)
        probeHolder.withLock { $0 = nil }
        guard withUnowned != exclusive, countWord(object) == exclusive else { return false }
        probeHolder.withLock { $0 = WeakHolder(probe.takeUnretainedValue()) }
        let withWeak = countWord(object)
        probeHolder.withLock { $0 = nil }
        return withWeak != exclusive
    }()
}

/// The self-test's object and the holders of its unowned and weak references.
private final class Probe {}
private final class UnownedHolder: @unchecked Sendable {
    unowned let target: Probe
    init(_ target: Probe) { self.target = target }
}
private final class WeakHolder: @unchecked Sendable {
    weak var target: Probe?
    init(_ target: Probe) { self.target = target }
}
private let probeHolder = Locked<AnyObject?>(nil)
