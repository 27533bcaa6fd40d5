import RxCore
import Testing

// `share(replay:scope:)` for every replay count from 0 to 4 in both scopes, on one timeline:
// two subscribers overlapping, a third after the connection ended; then a source that terminates
// while subscribers resubscribe from their terminal handler. What RxSwift's users rely on: a
// `.forever` share keeps its buffer and its terminal event for later subscribers, a
// `.whileConnected` one forgets both and connects afresh.
extension RxCoreTests {
    @Suite("share(replay:scope:) for replay counts 0 to 4")
    struct ShareReplayScopeTests {
        /// Elements 1…5 before the second subscriber, 6 after it; 7 only after both left.
        static var elements: [Recorded<Event<Int>>] {
            [
                .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .next(320, 6),
                .next(550, 7),
            ]
        }

        /// The elements `replay` would replay at `time` out of the last ones up to `last`.
        static func replayed(_ replay: Int, upTo last: Int, at time: TestTime) -> [Recorded<Event<Int>>] {
            (0..<replay).map { .next(time, last - replay + 1 + $0) }
        }

        @Test(
            "Subscribers get the last elements replayed; forever keeps them for a later connection, whileConnected does not",
            arguments: [SubjectLifetimeScope.forever, .whileConnected], 0..<5)
        func replaysWithinAndAcrossConnections(scope: SubjectLifetimeScope, replay: Int) {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable(Self.elements)
            let shared = source.asObservable().share(replay: replay, scope: scope)
            let first = scheduler.createObserver(Int.self)
            let second = scheduler.createObserver(Int.self)
            let third = scheduler.createObserver(Int.self)
            var subscriptions: [Int: Disposable] = [:]
            scheduler.scheduleAt(200) { subscriptions[1] = shared.subscribe(first) }
            scheduler.scheduleAt(300) { subscriptions[2] = shared.subscribe(second) }
            scheduler.scheduleAt(350) { subscriptions[1]?.dispose() }
            scheduler.scheduleAt(400) { subscriptions[2]?.dispose() }
            scheduler.scheduleAt(500) { subscriptions[3] = shared.subscribe(third) }
            scheduler.scheduleAt(600) { subscriptions[3]?.dispose() }
            scheduler.start()

            #expect(first.events == Array(Self.elements.prefix(6)))
            #expect(second.events == Self.replayed(replay, upTo: 5, at: 300) + [.next(320, 6)])
            let kept = scope == .forever ? Self.replayed(replay, upTo: 6, at: 500) : []
            #expect(third.events == kept + [.next(550, 7)])
            #expect(source.subscriptions == [Subscription(200, 400), Subscription(500, 600)])
        }

        @Test(
            "A terminated share: forever replays the buffer and the terminal event; whileConnected reconnects for subscribers from the terminal handler",
            arguments: [SubjectLifetimeScope.forever, .whileConnected], [false, true])
        func terminationAndResubscription(scope: SubjectLifetimeScope, failing: Bool) {
            for replay in 0..<5 {
                let scheduler = TestScheduler(initialClock: 0)
                let terminal: Recorded<Event<Int>> = failing ? .error(330, TestError(1)) : .completed(330)
                let source = scheduler.createHotObservable(
                    Array(Self.elements.prefix(6)) + [terminal, .next(340, -1), .next(550, 7)])
                let shared = source.asObservable().share(replay: replay, scope: scope)
                let first = scheduler.createObserver(Int.self)
                let second = scheduler.createObserver(Int.self)
                let firstAgain = scheduler.createObserver(Int.self)
                let secondAgain = scheduler.createObserver(Int.self)
                let third = scheduler.createObserver(Int.self)
                var subscriptions: [Int: Disposable] = [:]
                // Each of the first two subscribes again from its terminal handler.
                func subscribe(_ key: Int, _ recorder: TestableObserver<Int>, again: TestableObserver<Int>) {
                    subscriptions[key] = shared.subscribe { event in
                        recorder.on(event)
                        if event.isStopEvent { subscriptions[key] = shared.subscribe(again) }
                    }
                }
                scheduler.scheduleAt(200) { subscribe(1, first, again: firstAgain) }
                scheduler.scheduleAt(300) { subscribe(2, second, again: secondAgain) }
                scheduler.scheduleAt(350) { subscriptions[1]?.dispose() }
                scheduler.scheduleAt(400) { subscriptions[2]?.dispose() }
                scheduler.scheduleAt(500) { subscriptions[3] = shared.subscribe(third) }
                scheduler.scheduleAt(600) { subscriptions[3]?.dispose() }
                scheduler.start()

                let ended = terminal.value
                #expect(first.events == Array(Self.elements.prefix(6)) + [terminal], "replay \(replay)")
                #expect(
                    second.events == Self.replayed(replay, upTo: 5, at: 300) + [.next(320, 6), terminal],
                    "replay \(replay)")
                if scope == .forever {
                    // The buffer and the terminal event, to every later subscriber; no reconnection.
                    let again = Self.replayed(replay, upTo: 6, at: 330) + [Recorded(time: 330, value: ended)]
                    #expect(firstAgain.events == again, "replay \(replay)")
                    #expect(secondAgain.events == again, "replay \(replay)")
                    let late = Self.replayed(replay, upTo: 6, at: 500) + [Recorded(time: 500, value: ended)]
                    #expect(third.events == late, "replay \(replay)")
                    #expect(source.subscriptions == [Subscription(200, 330)], "replay \(replay)")
                } else {
                    // The terminated connection is forgotten: the handlers' subscriptions make a new
                    // one, which gets what the source sends next.
                    #expect(firstAgain.events == [.next(340, -1)], "replay \(replay)")
                    #expect(secondAgain.events == [.next(340, -1)], "replay \(replay)")
                    #expect(third.events == [.next(550, 7)], "replay \(replay)")
                    #expect(
                        source.subscriptions == [
                            Subscription(200, 330), Subscription(330, 400), Subscription(500, 600),
                        ], "replay \(replay)")
                }
            }
        }
    }
}
