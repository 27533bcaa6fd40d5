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
    /// The events of `takeWhile`, `takeUntil` (other and predicate), `skipWhile` and `skipUntil`
    /// over `1, 2, 3, 4`, in that order.
    func takeAndSkipAliasEvents() -> [[Event<Int>]]
    /// The events of `take(_:scheduler:)` in virtual time and of `Observable.catchError(_:)` of
    /// a sequence.
    func takeForAndCatchSequenceAliasEvents() -> (take: [Recorded<Event<Int>>], catchSequence: [Event<Int>])
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

    @available(*, deprecated)
    func takeAndSkipAliasEvents() -> [[Event<Int>]] {
        let source = Observable.of(1, 2, 3, 4)
        return [
            synchronousEvents(of: source.takeWhile { $0 < 3 }),
            synchronousEvents(of: source.takeUntil(Observable<Int>.never())),
            synchronousEvents(of: source.takeUntil(.inclusive) { $0 == 2 }),
            synchronousEvents(of: source.skipWhile { $0 < 3 }),
            synchronousEvents(of: source.skipUntil(Observable.just(0))),
        ]
    }

    @available(*, deprecated)
    func takeForAndCatchSequenceAliasEvents() -> (take: [Recorded<Event<Int>>], catchSequence: [Event<Int>]) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        let res = scheduler.start { xs.take(.seconds(25), scheduler: scheduler) }
        let catchSequence = synchronousEvents(
            of: Observable.catchError([Observable.concat(.of(1), .error(TestError(1))), .of(2)]))
        return (res.events, catchSequence)
    }
}
