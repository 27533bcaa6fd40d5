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
/// - A handle referenced by nothing but the call (`isExclusive`) owns nothing and is kept as the
///   thread's spare, or dropped if a nested call's handle already is; rebinding a spare to
///   another receiver cannot be seen through any reference, since none exists.
/// - Spares own no reference; a thread's spare is released when the thread exits.
enum ThisHandles {
    /// A thread's spare: the address of a handle the cell holds one Swift reference to, or nil.
    typealias Cell = UnsafeMutablePointer<UnsafeMutableRawPointer?>

    /// The thread-local slot holding each thread's cell; the destructor drops the spare.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in
            guard let raw else { return }
            let cell = raw.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
            if let spare = cell.pointee {
                Unmanaged<RuntimeObject>.fromOpaque(spare).release()
            }
            cell.deallocate()
        }
        precondition(status == 0, "pthread_key_create failed (\(status))")
        return key
    }()

    /// The calling thread's cell, made on first use.
    @inline(__always)
    private static var cell: Cell {
        if let raw = pthread_getspecific(key) {
            return raw.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
        }
        let fresh = Cell.allocate(capacity: 1)
        fresh.initialize(to: nil)
        pthread_setspecific(key, fresh)
        return fresh
    }

    /// Runs `body` with a borrowed handle to `receiver` (the thread's spare, rebound, or a new
    /// one), then ends the call: an escaped handle takes its reference; one that nothing else
    /// references becomes the thread's spare (unless a nested call's handle already is).
    ///
    /// The call's own reference to the handle is kept as an `Unmanaged` and lent to `body`
    /// guaranteed: as a strong local, the compiler kept a retain and release pair per call.
    @inline(__always)
    static func call(_ receiver: OpaquePointer, methodClass: OpaquePointer?, _ body: (RuntimeObject) -> Void)
    {
        let cell = cell
        let handle: Unmanaged<RuntimeObject>
        if let spare = cell.pointee {
            cell.pointee = nil
            handle = Unmanaged.fromOpaque(spare)
            handle._withUnsafeGuaranteedRef { $0.rebind(borrowing: receiver, methodClass: methodClass) }
        } else {
            handle = Unmanaged.passRetained(RuntimeObject(borrowing: receiver, methodClass: methodClass))
        }
        handle._withUnsafeGuaranteedRef { body($0) }
        let keep = handle._withUnsafeGuaranteedRef { this -> Bool in
            guard isExclusive(this) else {
                // Kept (strongly, weakly or unowned) by the closure: a handle that may outlive
                // the call owns a reference, taken while the sender keeps the object alive.
                this.takeOwnership()
                return false
            }
            return cell.pointee == nil
        }
        if keep {
            cell.pointee = handle.toOpaque()  // the call's reference moves to the cell
        } else {
            handle.release()
        }
    }

    /// Whether the call's reference is the only reference of any kind to `handle`. Weak and
    /// unowned references are read before and after the strong count: a reference another
    /// thread holds can only be turned into another kind from one it already holds, so if none
    /// is seen at either end and no other strong one in between, there was none throughout,
    /// and none can appear (nothing else can reach the handle).
    @inline(__always)
    private static func isExclusive(_ handle: RuntimeObject) -> Bool {
        _getWeakRetainCount(handle) == 1 && _getUnownedRetainCount(handle) == 1
            && _getRetainCount(handle) == 1
            && _getWeakRetainCount(handle) == 1 && _getUnownedRetainCount(handle) == 1
    }
}
