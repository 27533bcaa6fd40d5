import RxCore
import Testing

extension RxCoreTests {
    @Suite("multicast, publish, replay")
    struct MulticastTests {
        /// A hot source shared by the scenarios below.
        static func source(_ scheduler: TestScheduler, terminal: Recorded<Event<Int>>? = nil)
            -> TestableObservable<Int>
        {
            var events: [Recorded<Event<Int>>] = [
                .next(110, 7), .next(220, 3), .next(280, 4), .next(290, 1), .next(340, 8), .next(360, 5),
                .next(370, 6), .next(390, 7), .next(410, 13), .next(430, 2),
            ]
            if let terminal { events.append(terminal) }
            events += [
                .next(450, 9), .next(520, 11), .next(560, 20), .next(570, 21), .next(580, 23), .next(590, 24),
                .next(600, 25), .next(610, 26), .next(620, 27), .next(630, 28), .error(800, TestError(1)),
            ]
            return scheduler.createHotObservable(events)
        }

        /// Connects at 300, disconnects at 400; connects at 420 (and again at 440, which returns the
        /// same connection), disposes that at 530; connects at 575, disposes it at 621.
        static func scheduleConnections(
            _ scheduler: TestScheduler, _ ys: @escaping () -> ConnectableObservable<Int>
        ) {
            var connection: Disposable?
            var inner: Disposable?
            var last: Disposable?
            scheduler.scheduleAt(300) { connection = ys().connect() }
            scheduler.scheduleAt(400) { connection?.dispose() }
            scheduler.scheduleAt(420) { connection = ys().connect() }
            scheduler.scheduleAt(440) { inner = ys().connect() }
            scheduler.scheduleAt(530) { inner?.dispose() }
            scheduler.scheduleAt(575) { last = ys().connect() }
            scheduler.scheduleAt(590) { connection?.dispose() }
            scheduler.scheduleAt(621) { last?.dispose() }
        }

        @Test("Multicast with a subject factory makes a new subject after each connection ends")
        func whileConnectedConnectControlsSubscription() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = Self.source(scheduler)
            var ys: ConnectableObservable<Int>?
            var subscription: Disposable?
            let observer = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(100) {
                ys = xs.multicast(makeSubject: { ReplaySubject.create(bufferSize: 3) })
            }
            scheduler.scheduleAt(405) { subscription = ys!.subscribe(observer) }
            scheduler.scheduleAt(1000) { subscription?.dispose() }
            Self.scheduleConnections(scheduler) { ys! }
            scheduler.start()
            #expect(observer.events == [.next(430, 2), .next(450, 9), .next(520, 11)])
            #expect(
                xs.subscriptions == [Subscription(300, 400), Subscription(420, 530), Subscription(575, 621)])
        }

        @Test("Multicast with one subject keeps it across connections")
        func foreverConnectControlsSubscription() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = Self.source(scheduler)
            var ys: ConnectableObservable<Int>?
            var subscription: Disposable?
            let observer = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(100) { ys = xs.multicast(ReplaySubject.create(bufferSize: 3)) }
            scheduler.scheduleAt(405) { subscription = ys!.subscribe(observer) }
            scheduler.scheduleAt(1000) { subscription?.dispose() }
            Self.scheduleConnections(scheduler) { ys! }
            scheduler.start()
            #expect(
                observer.events == [
                    .next(405, 5), .next(405, 6), .next(405, 7), .next(430, 2), .next(450, 9), .next(520, 11),
                    .next(580, 23), .next(590, 24), .next(600, 25), .next(610, 26), .next(620, 27),
                ])
            #expect(
                xs.subscriptions == [Subscription(300, 400), Subscription(420, 530), Subscription(575, 621)])
        }

        @Test("A subscriber that reconnects when the source completes gets a new connection")
        func whileConnectedCompleted() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = Self.source(scheduler, terminal: .completed(435))
            var ys: ConnectableObservable<Int>?
            var subscription: Disposable?
            let observer = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(100) {
                ys = xs.multicast(makeSubject: { ReplaySubject.create(bufferSize: 1) })
            }
            scheduler.scheduleAt(405) {
                subscription = ys!.do(onCompleted: {
                    subscription = ys!.subscribe(observer)
                    _ = ys!.connect()
                })
                .subscribe(observer)
            }
            scheduler.scheduleAt(1000) { subscription?.dispose() }
            Self.scheduleConnections(scheduler) { ys! }
            scheduler.start()
            #expect(observer.events == [.next(430, 2), .completed(435), .next(450, 9), .next(520, 11)])
            #expect(
                xs.subscriptions == [
                    Subscription(300, 400), Subscription(420, 435), Subscription(435, 530),
                    Subscription(575, 621),
                ])
        }

        @Test("Publish shares elements emitted while connected; replay(1) replays the latest")
        func publishAndReplay() {
            let subject = PublishSubject<Int>()
            let published = subject.publish()
            let replayed = subject.replay(1)
            var seen: [String] = []
            let a = published.subscribe(onNext: { seen.append("p\($0)") })
            subject.onNext(0)
            let connections = [published.connect(), replayed.connect()]
            subject.onNext(1)
            let b = replayed.subscribe(onNext: { seen.append("r\($0)") })
            subject.onNext(2)
            #expect(seen == ["p1", "r1", "p2", "r2"])
            for disposable in connections + [a, b] { disposable.dispose() }
        }

        @Test(
            "ReplayAll replays every element to late subscribers while connected, not after the source ends")
        func replayAll() {
            let subject = PublishSubject<Int>()
            let connectable = subject.replayAll()
            let connection = connectable.connect()
            subject.onNext(1)
            subject.onNext(2)
            #expect(synchronousEvents(of: connectable.take(2)) == [.next(1), .next(2), .completed])
            subject.onCompleted()
            // As in RxSwift 6, the connection ended with the source: a new subscriber gets a new
            // subject, which has nothing to replay until the next connection.
            var values: [Int] = []
            let late = connectable.subscribe(onNext: { values.append($0) })
            #expect(values == [])
            late.dispose()
            connection.dispose()
        }

        @Test("Multicast with a selector connects one subject per subscription")
        func multicastWithSelector() {
            var subscriptions = 0
            let source = Observable<Int>.deferred {
                subscriptions += 1
                return .of(1, 2)
            }
            let zipped = source.multicast(
                { PublishSubject<Int>() },
                selector: { shared in Observable.zip(shared, shared.map { $0 * 10 }) { $0 + $1 } })
            #expect(synchronousEvents(of: zipped) == [.next(11), .next(22), .completed])
            #expect(subscriptions == 1)
        }
    }
}
