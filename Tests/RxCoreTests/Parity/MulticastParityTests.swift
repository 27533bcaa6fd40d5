import RxCore
import Testing

// Scenarios of RxSwift 6.10.2's Observable+MulticastTests.swift: connect and disconnect of a
// connectable sequence, with a subject per connection (makeSubject) or one subject forever.
extension RxCoreTests {
    @Suite("multicast connections, RxSwift parity")
    struct MulticastParityTests {
        private let testError = TestError(1)

        private func source(_ scheduler: TestScheduler, terminal: Recorded<Event<Int>>?)
            -> TestableObservable<Int>
        {
            var events: [Recorded<Event<Int>>] = [
                .next(110, 7), .next(220, 3), .next(280, 4), .next(290, 1), .next(340, 8), .next(360, 5),
                .next(370, 6), .next(390, 7), .next(410, 13), .next(430, 2),
            ]
            if let terminal { events.append(terminal) }
            events += [
                .next(450, 9), .next(520, 11), .next(560, 20), .next(570, 21), .next(580, 23), .next(590, 24),
                .next(600, 25), .next(610, 26), .next(620, 27), .next(630, 28), .error(800, testError),
            ]
            return scheduler.createHotObservable(events)
        }

        /// Connects at 300, disconnects at 400, connects at 420 (and again at 440, the same
        /// connection, disposed at 530), connects at 575 and disconnects at 621.
        private func run(
            _ scheduler: TestScheduler, _ make: @escaping () -> ConnectableObservable<Int>,
            subscribeAt time: TestTime, reconnectOnTerminal: Bool = false
        ) -> TestableObserver<Int> {
            var ys: ConnectableObservable<Int>?
            var subscription: Disposable?
            var connection: Disposable?
            var innerConnection: Disposable?
            var lastConnection: Disposable?
            let res = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(100) { ys = make() }
            scheduler.scheduleAt(time) {
                guard let ys else { return }
                if reconnectOnTerminal {
                    let reconnect = {
                        subscription = ys.subscribe(res)
                        _ = ys.connect()
                    }
                    subscription = ys.do(onError: { _ in reconnect() }, onCompleted: reconnect).subscribe(res)
                } else {
                    subscription = ys.subscribe(res)
                }
            }
            scheduler.scheduleAt(1000) { subscription?.dispose() }
            scheduler.scheduleAt(300) { connection = ys?.connect() }
            scheduler.scheduleAt(400) { connection?.dispose() }
            scheduler.scheduleAt(420) { connection = ys?.connect() }
            scheduler.scheduleAt(440) { innerConnection = ys?.connect() }
            scheduler.scheduleAt(530) { innerConnection?.dispose() }
            scheduler.scheduleAt(575) { lastConnection = ys?.connect() }
            scheduler.scheduleAt(590) { connection?.dispose() }
            scheduler.scheduleAt(621) { lastConnection?.dispose() }
            scheduler.start()
            subscription = nil
            ys = nil
            return res
        }

        @Test("With a subject per connection, a subscriber sees only the connection it subscribed for")
        func whileConnectedConnectControlsSubscription() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = source(scheduler, terminal: nil)
            let res = run(
                scheduler, { xs.multicast(makeSubject: { ReplaySubject.create(bufferSize: 3) }) },
                subscribeAt: 405)
            #expect(res.events == [.next(430, 2), .next(450, 9), .next(520, 11)])
            #expect(
                xs.subscriptions == [Subscription(300, 400), Subscription(420, 530), Subscription(575, 621)])
        }

        @Test("With a subject per connection, a subscriber during a connection gets that subject's replay")
        func whileConnectedConnectFirstThenSubscribe() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = source(scheduler, terminal: nil)
            let res = run(
                scheduler, { xs.multicast(makeSubject: { ReplaySubject.create(bufferSize: 1) }) },
                subscribeAt: 470)
            #expect(res.events == [.next(470, 9), .next(520, 11)])
            #expect(
                xs.subscriptions == [Subscription(300, 400), Subscription(420, 530), Subscription(575, 621)])
        }

        @Test(
            "With a subject per connection, a terminal event ends the connection; a reconnect from its handler starts a new one",
            arguments: [false, true])
        func whileConnectedTerminated(fails: Bool) {
            let scheduler = TestScheduler(initialClock: 0)
            let terminal: Recorded<Event<Int>> = fails ? .error(435, testError) : .completed(435)
            let xs = source(scheduler, terminal: terminal)
            let res = run(
                scheduler, { xs.multicast(makeSubject: { ReplaySubject.create(bufferSize: 1) }) },
                subscribeAt: 405,
                reconnectOnTerminal: true)
            #expect(res.events == [.next(430, 2), terminal, .next(450, 9), .next(520, 11)])
            #expect(
                xs.subscriptions == [
                    Subscription(300, 400), Subscription(420, 435), Subscription(435, 530),
                    Subscription(575, 621),
                ])
        }

        @Test("With one subject, a subscriber gets its replay and the elements of every later connection")
        func foreverConnectControlsSubscription() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = source(scheduler, terminal: nil)
            let res = run(scheduler, { xs.multicast(ReplaySubject.create(bufferSize: 3)) }, subscribeAt: 405)
            #expect(
                res.events == [
                    .next(405, 5), .next(405, 6), .next(405, 7), .next(430, 2), .next(450, 9), .next(520, 11),
                    .next(580, 23), .next(590, 24), .next(600, 25), .next(610, 26), .next(620, 27),
                ])
            #expect(
                xs.subscriptions == [Subscription(300, 400), Subscription(420, 530), Subscription(575, 621)])
        }

        @Test("With one subject, a subscriber during a connection gets the replay and every later connection")
        func foreverConnectFirstThenSubscribe() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = source(scheduler, terminal: nil)
            let res = run(scheduler, { xs.multicast(ReplaySubject.create(bufferSize: 1)) }, subscribeAt: 470)
            #expect(
                res.events == [
                    .next(470, 9), .next(520, 11), .next(580, 23), .next(590, 24), .next(600, 25),
                    .next(610, 26),
                    .next(620, 27),
                ])
            #expect(
                xs.subscriptions == [Subscription(300, 400), Subscription(420, 530), Subscription(575, 621)])
        }

        @Test(
            "With one terminated subject, a reconnect from the terminal handler replays it and the terminal event again",
            arguments: [false, true])
        func foreverTerminated(fails: Bool) {
            let scheduler = TestScheduler(initialClock: 0)
            let terminal: Recorded<Event<Int>> = fails ? .error(435, testError) : .completed(435)
            let xs = source(scheduler, terminal: terminal)
            let res = run(
                scheduler, { xs.multicast(ReplaySubject.create(bufferSize: 1)) }, subscribeAt: 405,
                reconnectOnTerminal: true)
            #expect(res.events == [.next(405, 7), .next(430, 2), .next(435, 2), terminal, terminal])
            #expect(
                xs.subscriptions == [
                    Subscription(300, 400), Subscription(420, 435), Subscription(435, 530),
                    Subscription(575, 621),
                ])
        }

        private func replaySource(_ scheduler: TestScheduler, terminal: Recorded<Event<Int>>)
            -> TestableObservable<Int>
        {
            scheduler.createHotObservable([
                .next(110, 7), .next(220, 3), .next(280, 4), .next(290, 1), .next(340, 8), .next(360, 5),
                .next(370, 6), .next(390, 7), .next(410, 13), .next(430, 2), .next(450, 9), .next(520, 11),
                .next(560, 20), terminal,
            ])
        }

        private func runReplay(
            _ scheduler: TestScheduler, _ make: @escaping () -> ConnectableObservable<Int>,
            connections: [(TestTime, TestTime)], disposeAt: TestTime = 1000
        ) -> TestableObserver<Int> {
            var ys: ConnectableObservable<Int>?
            var subscription: Disposable?
            var connection: Disposable?
            let res = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(100) { ys = make() }
            scheduler.scheduleAt(450) { subscription = ys?.subscribe(res) }
            scheduler.scheduleAt(disposeAt) { subscription?.dispose() }
            for (connect, disconnect) in connections {
                scheduler.scheduleAt(connect) { connection = ys?.connect() }
                scheduler.scheduleAt(disconnect) { connection?.dispose() }
            }
            scheduler.start()
            subscription = nil
            ys = nil
            return res
        }

        // replay(_:) and replayAll() are multicast(makeSubject:) in RxSwift 6 (a subject per
        // connection, cleared on disconnect: CHANGELOG 4.0.0-beta.1), so a subscriber arriving
        // between connections starts with an empty buffer. RxSwift's pre-4.0 tests expected the
        // buffer of the previous connection.
        @Test("Replay(3) starts a new buffer for each connection")
        func replayCountBasic() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = replaySource(scheduler, terminal: .error(600, testError))
            let res = runReplay(
                scheduler, { xs.replay(3) }, connections: [(300, 400), (500, 550), (650, 800)])
            #expect(res.events == [.next(520, 11)])
            #expect(
                xs.subscriptions == [Subscription(300, 400), Subscription(500, 550), Subscription(650, 800)])
        }

        @Test("Replay(3) forwards the source's error of a later connection")
        func replayCountError() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = replaySource(scheduler, terminal: .error(600, testError))
            let res = runReplay(scheduler, { xs.replay(3) }, connections: [(300, 400), (500, 800)])
            #expect(res.events == [.next(520, 11), .next(560, 20), .error(600, testError)])
            #expect(xs.subscriptions == [Subscription(300, 400), Subscription(500, 600)])
        }

        @Test("Replay(1) subscribed between connections and disposed before the next gets nothing")
        func replayOneDispose() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = replaySource(scheduler, terminal: .completed(600))
            let res = runReplay(
                scheduler, { xs.replay(1) }, connections: [(300, 400), (500, 550), (650, 800)], disposeAt: 475
            )
            #expect(res.events == [])
            #expect(
                xs.subscriptions == [Subscription(300, 400), Subscription(500, 550), Subscription(650, 800)])
        }

        @Test("ReplayAll does not replay a connection that ended before the subscription")
        func replayAllBasic() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = replaySource(scheduler, terminal: .error(600, testError))
            let res = runReplay(
                scheduler, { xs.replayAll() }, connections: [(200, 400), (500, 550), (650, 800)])
            #expect(res.events == [.next(520, 11)])
            #expect(
                xs.subscriptions == [Subscription(200, 400), Subscription(500, 550), Subscription(650, 800)])
        }

        @Test("Replay(3) replays the current connection's buffer to a subscriber that arrives during it")
        func replayCountWithinConnection() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = replaySource(scheduler, terminal: .completed(600))
            let res = runReplay(scheduler, { xs.replay(3) }, connections: [(300, 550)])
            #expect(res.events == [.next(450, 13), .next(450, 2), .next(450, 9), .next(520, 11)])
            #expect(xs.subscriptions == [Subscription(300, 550)])
        }

        @Test("Publish and refCount connect for the first subscriber and disconnect after the last")
        func refCountPublish() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .next(260, 6),
                .next(270, 7), .next(280, 8), .next(290, 9), .completed(300),
            ])
            let res = xs.publish().refCount()
            var subscriptions: [Disposable?] = [nil, nil, nil, nil]
            let observers = (0..<4).map { _ in scheduler.createObserver(Int.self) }
            for (index, (from, to)) in [(215, 235), (225, 275), (255, 265), (285, 320)].enumerated() {
                scheduler.scheduleAt(from) { subscriptions[index] = res.subscribe(observers[index]) }
                scheduler.scheduleAt(to) { subscriptions[index]?.dispose() }
            }
            scheduler.start()
            #expect(observers[0].events == [.next(220, 2), .next(230, 3)])
            #expect(
                observers[1].events == [
                    .next(230, 3), .next(240, 4), .next(250, 5), .next(260, 6), .next(270, 7),
                ])
            #expect(observers[2].events == [.next(260, 6)])
            #expect(observers[3].events == [.next(290, 9), .completed(300)])
            #expect(xs.subscriptions == [Subscription(215, 275), Subscription(285, 300)])
        }

        @Test("RefCount over an already completed subject completes at once without connecting")
        func refCountTerminatedSubject() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1)])
            let subject = PublishSubject<Int>()
            subject.on(.completed)
            let res = scheduler.start { xs.multicast(subject).refCount() }
            #expect(res.events == [.completed(200)])
            #expect(xs.subscriptions == [])
        }

        @Test("Multicast with a selector shares one subscription between the selector's uses")
        func multicastSelectorZip() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(40, 0), .next(90, 1), .next(150, 2), .next(210, 3), .next(240, 4), .next(270, 5),
                .next(330, 6), .next(340, 7), .completed(390),
            ])
            let res = scheduler.start {
                xs.multicast({ PublishSubject<Int>() }, selector: { Observable.zip($0, $0) { $0 + $1 } })
            }
            #expect(
                res.events == [
                    .next(210, 6), .next(240, 8), .next(270, 10), .next(330, 12), .next(340, 14),
                    .completed(390),
                ])
            #expect(xs.subscriptions == [Subscription(200, 390)])
        }

        @Test("A throwing subject factory or selector of multicast fails at subscription without subscribing")
        func multicastSelectorThrows() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
            let res1 = scheduler.start(created: 100, subscribed: 200, disposed: 1000) {
                xs.multicast({ () throws -> PublishSubject<Int> in throw testError }, selector: { $0 })
            }
            #expect(res1.events == [.error(200, testError)])
            let scheduler2 = TestScheduler(initialClock: 0)
            let ys = scheduler2.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
            let res2 = scheduler2.start {
                ys.multicast({ PublishSubject<Int>() }, selector: { _ -> Observable<Int> in throw testError })
            }
            #expect(res2.events == [.error(200, testError)])
            #expect(xs.subscriptions == [])
            #expect(ys.subscriptions == [])
        }
    }
}
