import RxCore

/// Calls RxCore's deprecated RxSwift aliases, so that tests can check them without the package's
/// build showing deprecation warnings: the calls live in deprecated methods, and tests reach them
/// through this protocol, which does not warn.
protocol DeprecatedAliasCalls {
    /// The events of `catchError(_:)` recovering from an error.
    func catchErrorEvents() -> [Event<Int>]
    /// The events of `catchErrorJustReturn(_:)` recovering from an error.
    func catchErrorJustReturnEvents() -> [Event<Int>]
    /// The events of `retryWhen(_:)` retrying a source that fails once.
    func retryWhenEvents() -> [Event<Int>]
}

struct DeprecatedAliases: DeprecatedAliasCalls {
    @available(*, deprecated)
    func catchErrorEvents() -> [Event<Int>] {
        synchronousEvents(of: Observable.concat(.of(1), .error(TestError(1))).catchError { _ in .of(2) })
    }

    @available(*, deprecated)
    func catchErrorJustReturnEvents() -> [Event<Int>] {
        synchronousEvents(of: Observable.concat(.of(1), .error(TestError(1))).catchErrorJustReturn(2))
    }

    @available(*, deprecated)
    func retryWhenEvents() -> [Event<Int>] {
        var attempts = 0
        let source = Observable<Int>.deferred {
            attempts += 1
            return attempts < 2 ? .error(TestError(attempts)) : .of(attempts)
        }
        return synchronousEvents(of: source.retryWhen { errors in errors })
    }
}
