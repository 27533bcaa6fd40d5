// Hook state (SPEC 16.2, 16.5): whether a selector is hooked, the list of hooks, and removing
// them all, on one object or one class, from the engine's records (hooks added from C included).
import CInterception
import Glibc

/// One hook of an object or a class, as ``HookTarget/hooks`` lists it.
public struct InstalledHook: Hashable, Sendable, CustomStringConvertible {
    /// Its token: cancel it to remove the hook.
    public let token: HookToken
    /// The hooked selector (`dealloc` for an after-dealloc hook).
    public let selector: Selector
    public let position: HookPosition
    /// Added with `oneShot: true` (and not fired yet).
    public let oneShot: Bool

    public var description: String {
        "\(position) \(selector.name)\(oneShot ? " (one-shot)" : "")"
    }

    /// The hooks of a C list (freed here).
    static func list(_ items: UnsafeMutablePointer<ic_hook_info>?, _ count: Int) -> [InstalledHook] {
        guard let items else { return [] }
        defer { free(items) }
        return (0..<count).map {
            let info = items[$0]
            return InstalledHook(
                token: HookToken(rawValue: info.token), selector: Selector(pointer: info.sel),
                position: HookPosition(info.position), oneShot: info.options & UInt32(IC_HOOK_ONE_SHOT) != 0)
        }
    }
}

extension HookTarget {
    /// The hooks of this object or class: for an object, those added to it (not its class's, nor
    /// its `rx` subscriptions); for a class, those added to exactly this class (class methods'
    /// on its ``RuntimeClass/metaclass``). Per selector in call order: before, instead, after.
    /// A snapshot: hooks other threads add or cancel meanwhile may or may not be in it.
    public var hooks: [InstalledHook] { _hookList() }

    /// Whether `selector` has a hook on this object or class (as ``hooks`` counts them).
    public func isHooked(_ selector: Selector) -> Bool {
        _hookList().contains { $0.selector == selector }
    }

    /// Cancels every hook of this object or class on `selector` (`nil`: on every selector), as
    /// ``HookToken/cancel()`` cancels each; `rx` subscriptions stay.
    /// - Returns: how many hooks this call removed.
    @discardableResult
    public func removeAllHooks(for selector: Selector? = nil) -> Int {
        _removeAllHooks(selector)
    }
}
