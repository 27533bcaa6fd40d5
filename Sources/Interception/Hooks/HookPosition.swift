// HookPosition: where a hook runs relative to the method (SPEC 10.1).
import CInterception

/// Where a hook runs: before the method, in its place, or after it.
///
/// Within one layer (an object's hooks, or a class's), a call runs the before hooks in the order
/// they were added, then the instead chain (the last added outermost) or the next layer in, then
/// the after hooks in the order added. An object's layer wraps its class's layer, which wraps the
/// method.
public enum HookPosition: Hashable, Sendable, CustomStringConvertible {
    /// Before the method: may replace arguments.
    case before
    /// In place of the method: may call the original (any number of times, or never) and sets
    /// the result.
    case instead
    /// After the method (or the instead chain) returned: may replace the result.
    case after

    /// The engine's position.
    var cValue: ic_hook_position {
        switch self {
        case .before: IC_HOOK_BEFORE
        case .instead: IC_HOOK_INSTEAD
        case .after: IC_HOOK_AFTER
        }
    }

    init(_ position: ic_hook_position) {
        switch position {
        case IC_HOOK_INSTEAD: self = .instead
        case IC_HOOK_AFTER: self = .after
        default: self = .before
        }
    }

    /// `before`, `instead` or `after`.
    public var description: String {
        switch self {
        case .before: "before"
        case .instead: "instead"
        case .after: "after"
        }
    }
}
