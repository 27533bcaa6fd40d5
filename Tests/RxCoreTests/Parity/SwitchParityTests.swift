import RxCore
import Testing

// Scenarios of RxSwift 6.10.2's Observable+SwitchTests.swift.
extension RxCoreTests {
    @Suite("switchLatest and flatMapLatest, RxSwift parity")
    struct SwitchParityTests {
        private let testError = TestError(1)

        private func inners(_ scheduler: TestScheduler, secondFails: Bool) -> [TestableObservable<Int>] {
            let ys1 = scheduler.createColdObservable([
                .next(10, 101), .next(20, 102), .next(110, 103), .next(120, 104), .next(210, 105),
                .next(220, 106), .completed(230),
            ])
            let ys2 = scheduler.createColdObservable([
                .next(10, 201), .next(20, 202), .next(30, 203), .next(40, 204),
                secondFails ? .error(50, testError) : .completed(50),
            ])
            let ys3 = scheduler.createColdObservable([
                .next(10, 301), .next(20, 302), .next(30, 303), .next(40, 304), .completed(150),
            ])
            return [ys1, ys2, ys3]
        }

        @Test("An inner sequence's error ends switchLatest and unsubscribes the outer sequence")
        func switchInnerThrows() {
            let scheduler = TestScheduler(initialClock: 0)
            let ys = inners(scheduler, secondFails: true)
            let xs = scheduler.createHotObservable([
                .next(300, ys[0]), .next(400, ys[1]), .next(500, ys[2]), .completed(600),
            ])
            let res = scheduler.start { xs.switchLatest() }
            #expect(
                res.events == [
                    .next(310, 101), .next(320, 102), .next(410, 201), .next(420, 202), .next(430, 203),
                    .next(440, 204), .error(450, testError),
                ])
            #expect(xs.subscriptions == [Subscription(200, 450)])
            #expect(ys[0].subscriptions == [Subscription(300, 400)])
            #expect(ys[1].subscriptions == [Subscription(400, 450)])
            #expect(ys[2].subscriptions == [])
        }

        @Test("The outer sequence's error ends switchLatest even after the inner one completed")
        func switchOuterThrows() {
            let scheduler = TestScheduler(initialClock: 0)
            let ys = inners(scheduler, secondFails: false)
            let xs = scheduler.createHotObservable([
                .next(300, ys[0]), .next(400, ys[1]), .error(500, testError),
            ])
            let res = scheduler.start { xs.switchLatest() }
            #expect(
                res.events == [
                    .next(310, 101), .next(320, 102), .next(410, 201), .next(420, 202), .next(430, 203),
                    .next(440, 204), .error(500, testError),
                ])
            #expect(xs.subscriptions == [Subscription(200, 500)])
            #expect(ys[0].subscriptions == [Subscription(300, 400)])
            #expect(ys[1].subscriptions == [Subscription(400, 450)])
        }

        @Test("FlatMapLatest completes when the outer and the last inner sequence have")
        func flatMapLatestData() {
            let scheduler = TestScheduler(initialClock: 0)
            let ys = inners(scheduler, secondFails: false)
            let xs = scheduler.createHotObservable([
                .next(300, 0), .next(400, 1), .next(500, 2), .completed(600),
            ])
            let res = scheduler.start { xs.flatMapLatest { ys[$0] } }
            #expect(
                res.events == [
                    .next(310, 101), .next(320, 102), .next(410, 201), .next(420, 202), .next(430, 203),
                    .next(440, 204), .next(510, 301), .next(520, 302), .next(530, 303), .next(540, 304),
                    .completed(650),
                ])
            #expect(xs.subscriptions == [Subscription(200, 600)])
            #expect(ys[0].subscriptions == [Subscription(300, 400)])
            #expect(ys[1].subscriptions == [Subscription(400, 450)])
            #expect(ys[2].subscriptions == [Subscription(500, 650)])
        }

        @Test("A throwing flatMapLatest selector fails the result and unsubscribes the current inner one")
        func flatMapLatestSelectorThrows() {
            let scheduler = TestScheduler(initialClock: 0)
            let ys = inners(scheduler, secondFails: false)
            let xs = scheduler.createHotObservable([.next(300, 0), .next(400, 1)])
            let res = scheduler.start {
                xs.flatMapLatest { x throws -> TestableObservable<Int> in
                    if x < 1 { return ys[x] }
                    throw testError
                }
            }
            #expect(res.events == [.next(310, 101), .next(320, 102), .error(400, testError)])
            #expect(xs.subscriptions == [Subscription(200, 400)])
            #expect(ys[0].subscriptions == [Subscription(300, 400)])
            #expect(ys[1].subscriptions == [])
        }

        @Test("FlatMapLatest releases everything when a timed inner sequence ends or times out")
        func flatMapLatestReleasesResources() {
            let scheduler = TestScheduler(initialClock: 0)
            _ = Observable<Int>.just(1).flatMapLatest { _ in
                Observable.just(1).concat(Observable.timer(.seconds(20), scheduler: scheduler))
            }.subscribe()
            _ = Observable<Int>.of(1, 2).concat(Observable.timer(.seconds(20), scheduler: scheduler))
                .flatMapLatest { _ in Observable.just(1) }.subscribe()
            _ = Observable<Int>.just(1).flatMapLatest { _ in
                Observable.just(1).concat(Observable.timer(.seconds(20), scheduler: scheduler))
                    .timeout(.seconds(10), scheduler: scheduler)
            }.subscribe()
            _ = Observable<Int>.of(1, 2).concat(Observable.timer(.seconds(20), scheduler: scheduler))
                .timeout(.seconds(10), scheduler: scheduler)
                .flatMapLatest { _ in Observable.just(1) }.subscribe()
            scheduler.start()
        }
    }
}
