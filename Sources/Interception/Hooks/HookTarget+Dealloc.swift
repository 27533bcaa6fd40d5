// Hooks on dealloc (SPEC 16.4), named as SwiftHook names them: before (the object is whole),
// instead (the original runs exactly once whatever the hook does), after (the memory is gone:
// the former address and the class).
import CInterception
import Synchronization

extension HookTarget {
    /// Runs `body` while the object is still whole, before its `dealloc` (for a class: before the
    /// `dealloc` of each of its instances and of its subclasses' instances). The same as
    /// `hookBefore("dealloc", body)`.
    ///
    /// `this` is valid during the call only: do not keep it (the object is about to go).
    @discardableResult
    public func hookDeallocBefore(
        oneShot: Bool = false, _ body: @escaping @Sendable (_ this: RuntimeObject) throws -> Void
    ) throws(InterceptionError) -> HookToken {
        try hookBefore(KnownSelectors.shared.dealloc, oneShot: oneShot, body)
    }

    /// Runs `body` in place of `dealloc`. `original` frees the object: call it once. If `body`
    /// returns without calling it, the engine calls it, and calls after the first do nothing, so
    /// a hook can neither leak the object nor free it twice. After `original()` the object is
    /// gone: do not use `this` then, nor keep it.
    ///
    /// ```swift
    /// try object.hookDeallocInstead { original, this in
    ///     print("freeing", this)
    ///     original()
    /// }
    /// ```
    @discardableResult
    public func hookDeallocInstead(
        oneShot: Bool = false,
        _ body: @escaping @Sendable (_ original: () -> Void, _ this: RuntimeObject) throws -> Void
    ) throws(InterceptionError) -> HookToken {
        try hookInstead(KnownSelectors.shared.dealloc, oneShot: oneShot, body)
    }

    /// Runs `body` once the object's memory is freed (for a class: once each instance's, its
    /// subclasses' included, made before or after the hook), with the address it had (never
    /// dereference it) and its class (what its `class` answered). `hookAfter("dealloc") { … }`
    /// is the same without the arguments.
    ///
    /// Order: an object's after-dealloc hooks (and its `rx.deallocated`) run after its class's,
    /// and after its instead hooks on `dealloc` returned, as every after hook does.
    ///
    /// ```swift
    /// try Account.hookDeallocAfter { address, cls in print("a", cls.name, "died at", address) }
    /// ```
    @discardableResult
    public func hookDeallocAfter(
        oneShot: Bool = false,
        _ body: @escaping @Sendable (_ address: UnsafeRawPointer, _ cls: RuntimeClass) throws -> Void
    ) throws(InterceptionError) -> HookToken {
        try _addDeallocatedHook(oneShot: oneShot, body)
    }
}

/// The context of a Swift after-dealloc hook. Released by the engine once the hook is removed
/// (or its object died) and no call of it can still run.
final class SwiftDeallocatedHook: Sendable {
    let className: String
    let isClassMethod: Bool
    let oneShot: Bool
    let body: @Sendable (UnsafeRawPointer, RuntimeClass) throws -> Void
    /// One-shot hooks: set by the call that runs the body.
    let fired = Atomic<Bool>(false)
    /// The hook's token once registered (0 before): a one-shot hook removes itself with it.
    let token = Atomic<UInt64>(0)

    init(
        className: String, isClassMethod: Bool, oneShot: Bool,
        body: @escaping @Sendable (UnsafeRawPointer, RuntimeClass) throws -> Void
    ) {
        self.className = className
        self.isClassMethod = isClassMethod
        self.oneShot = oneShot
        self.body = body
    }

    /// Registers the hook through `install` (which calls `ic_hook_*_deallocated` with the context
    /// and token it is given).
    func add(
        _ install: (UnsafeMutableRawPointer, UnsafeMutablePointer<ic_observer_token>) -> ic_status
    ) throws(InterceptionError) -> HookToken {
        let context = Unmanaged.passRetained(self).toOpaque()
        var raw: ic_observer_token = 0
        let status = install(context, &raw)
        guard status == IC_OK else {
            let error = InterceptionError.lastCError(
                status, className: className, selector: KnownSelectors.shared.dealloc, encoding: "v@:",
                isClassMethod: isClassMethod
            ).atHook(.after)
            Unmanaged<SwiftDeallocatedHook>.fromOpaque(context).release()
            throw error
        }
        token.store(raw, ordering: .releasing)
        // A one-shot class hook that fired before its token was known removes itself now.
        if oneShot, fired.load(ordering: .acquiring) { _ = ic_hook_remove(raw) }
        return HookToken(rawValue: raw)
    }

    func run(_ address: UnsafeRawPointer, _ cls: RuntimeClass) {
        if oneShot {
            guard !fired.exchange(true, ordering: .acquiringAndReleasing) else { return }
            let raw = token.load(ordering: .acquiring)
            defer { if raw != 0 { _ = ic_hook_remove(raw) } }
            call(address, cls)
        } else {
            call(address, cls)
        }
    }

    private func call(_ address: UnsafeRawPointer, _ cls: RuntimeClass) {
        do {
            try body(address, cls)
        } catch {
            Runtime.hookErrorHandler(
                HookError(
                    className: className, selector: KnownSelectors.shared.dealloc,
                    isClassMethod: isClassMethod,
                    error: error))
        }
    }
}

/// The C function of every Swift after-dealloc hook.
let swiftDeallocatedThunk:
    @convention(c) (UnsafeRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
        address, cls, context in
        let hook = Unmanaged<SwiftDeallocatedHook>.fromOpaque(context!).takeUnretainedValue()
        hook.run(address!, RuntimeClass(unchecked: cls!))
    }

/// Releases a Swift after-dealloc hook's context.
let swiftDeallocatedRelease: @convention(c) (UnsafeMutableRawPointer?) -> Void = { context in
    Unmanaged<SwiftDeallocatedHook>.fromOpaque(context!).release()
}
