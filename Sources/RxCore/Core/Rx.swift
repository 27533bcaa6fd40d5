/// Called by the members that every concrete subclass must override; reaching it is a programming
/// error in this module, never a user error.
func rxAbstractMethod(file: StaticString = #file, line: UInt = #line) -> Never {
    fatalError("Abstract method", file: file, line: line)
}

/// Carries a value that is not `Sendable` into a `@Sendable` closure (Dispatch work items, timer
/// handlers, stream termination handlers).
///
/// Every use states why the value is not accessed concurrently: typically the value is only used
/// by the closure, on one queue, after the sending thread has let go of it.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Reports a broken contract of a user's sequence (a `Single` that completes without an element,
/// for example): stops debug builds, as RxSwift does, and prints in release builds.
func rxFatalErrorInDebug(_ message: String, file: StaticString = #file, line: UInt = #line) {
    #if DEBUG
        fatalError(message, file: file, line: line)
    #else
        print("RxCore: \(message)")
    #endif
}
