import RxCore
import Testing

// Scenarios of RxSwift 6.10.2's Observable+SampleTests.swift and Observable+DebounceTests.swift.
extension RxCoreTests {
    @Suite("sample and debounce, RxSwift parity")
    struct SampleDebounceParityTests {
        private let testError = TestError(1)

        private func sampler(_ scheduler: TestScheduler, end: Recorded<Event<String>>) -> TestableObservable<
            String
        > {
            scheduler.createHotObservable([
                .next(150, ""), .next(210, "bar"), .next(250, "foo"), .next(260, "qux"), .next(320, "baz"),
                end,
            ])
        }

        // RxSwift's SamplerSink treats the sampler's completion as a tick, default value included.
        @Test("Sample with a default value emits it on a tick without a new element, completion included")
        func sampleDefault() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(150, 1), .next(220, 2), .next(240, 3), .next(290, 4), .next(300, 5), .next(310, 6),
                .completed(400),
            ])
            let ys = sampler(scheduler, end: .completed(500))
            let res = scheduler.start { xs.sample(ys, defaultValue: 0) }
            #expect(
                res.events == [
                    .next(210, 0), .next(250, 3), .next(260, 0), .next(320, 6), .next(500, 0),
                    .completed(500),
                ])
            #expect(xs.subscriptions == [Subscription(200, 400)])
            #expect(ys.subscriptions == [Subscription(200, 500)])
        }

        @Test("Sample emits the pending element when the sampler completes, then completes")
        func sampleSamplerCompletesWithPending() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(150, 1), .next(220, 2), .next(240, 3), .next(290, 4), .next(300, 5), .next(310, 6),
                .next(360, 7), .completed(400),
            ])
            let ys = sampler(scheduler, end: .completed(500))
            let res = scheduler.start { xs.sample(ys) }
            #expect(res.events == [.next(250, 3), .next(320, 6), .next(500, 7), .completed(500)])
            #expect(xs.subscriptions == [Subscription(200, 400)])
            #expect(ys.subscriptions == [Subscription(200, 500)])
        }

        @Test("After the source completes, sample completes at the next tick, with the pending element")
        func sampleSourceCompletesFirst() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(150, 1), .next(220, 2), .next(240, 3), .next(290, 4), .completed(300),
            ])
            let ys = sampler(scheduler, end: .completed(500))
            let res = scheduler.start { xs.sample(ys) }
            #expect(res.events == [.next(250, 3), .next(320, 4), .completed(320)])
            #expect(xs.subscriptions == [Subscription(200, 300)])
            #expect(ys.subscriptions == [Subscription(200, 320)])
        }

        @Test("The sampler's error ends sample and unsubscribes both")
        func sampleSamplerThrows() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(150, 1), .next(220, 2), .next(240, 3), .next(290, 4), .next(300, 5), .next(310, 6),
                .completed(400),
            ])
            let ys = scheduler.createHotObservable([
                .next(150, ""), .next(210, "bar"), .next(250, "foo"), .next(260, "qux"),
                .error(320, testError),
            ])
            let res = scheduler.start { xs.sample(ys) }
            #expect(res.events == [.next(250, 3), .error(320, testError)])
            #expect(xs.subscriptions == [Subscription(200, 320)])
            #expect(ys.subscriptions == [Subscription(200, 320)])
        }

        @Test("The source's error ends sample and unsubscribes both")
        func sampleSourceThrows() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(150, 1), .next(220, 2), .next(240, 3), .next(290, 4), .next(300, 5), .next(310, 6),
                .error(320, testError),
            ])
            let ys = scheduler.createHotObservable([
                .next(150, ""), .next(210, "bar"), .next(250, "foo"), .next(260, "qux"), .next(300, "baz"),
                .completed(400),
            ])
            let res = scheduler.start { xs.sample(ys) }
            #expect(res.events == [.next(250, 3), .next(300, 5), .error(320, testError)])
            #expect(xs.subscriptions == [Subscription(200, 320)])
            #expect(ys.subscriptions == [Subscription(200, 320)])
        }

        private func debounceSource(_ scheduler: TestScheduler, end: Recorded<Event<Int>>)
            -> TestableObservable<Int>
        {
            scheduler.createHotObservable([
                .next(150, 1), .next(200, 2), .next(250, 3), .next(300, 4), .next(350, 5), .next(400, 6),
                .next(450, 7), .next(500, 8), end,
            ])
        }

        @Test("Debounce shorter than the gaps lets every element through, due time after it")
        func debounceAllPass() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = debounceSource(scheduler, end: .completed(550))
            let res = scheduler.start { xs.debounce(.seconds(40), scheduler: scheduler) }
            #expect(
                res.events == [
                    .next(290, 3), .next(340, 4), .next(390, 5), .next(440, 6), .next(490, 7), .next(540, 8),
                    .completed(550),
                ])
            #expect(xs.subscriptions == [Subscription(200, 550)])
        }

        @Test("Debounce forwards an error after the elements that had already gone out")
        func debounceAllPassErrorEnd() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = debounceSource(scheduler, end: .error(550, testError))
            let res = scheduler.start { xs.debounce(.seconds(40), scheduler: scheduler) }
            #expect(
                res.events == [
                    .next(290, 3), .next(340, 4), .next(390, 5), .next(440, 6), .next(490, 7), .next(540, 8),
                    .error(550, testError),
                ])
        }

        @Test("Debounce longer than the gaps emits only the last element, at completion")
        func debounceAllDrop() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = debounceSource(scheduler, end: .completed(550))
            let res = scheduler.start { xs.debounce(.seconds(60), scheduler: scheduler) }
            #expect(res.events == [.next(550, 8), .completed(550)])
            #expect(xs.subscriptions == [Subscription(200, 550)])
        }

        @Test("Debounce longer than the gaps drops everything on error")
        func debounceAllDropError() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = debounceSource(scheduler, end: .error(550, testError))
            let res = scheduler.start { xs.debounce(.seconds(60), scheduler: scheduler) }
            #expect(res.events == [.error(550, testError)])
        }

        @Test("Debounce of zero emits every element a tick later")
        func debounceZero() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            let res = scheduler.start { xs.debounce(.seconds(0), scheduler: scheduler) }
            #expect(res.events == [.next(211, 1), .next(221, 2), .completed(300)])
        }
    }
}
