import RxCore
import Testing

extension RxCoreTests {
    @Suite("sample")
    struct SampleTests {
        @Test("Sample emits the latest new element each time the sampler ticks")
        func samplesLatest() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([
                .next(210, 1), .next(220, 2), .next(260, 3), .completed(300),
            ])
            let sampler = scheduler.createHotObservable([
                .next(230, "tick"), .next(250, "tick"), .next(270, "tick"), .next(320, "tick"),
            ])
            let observer = scheduler.start { source.sample(sampler) }
            #expect(observer.events == [.next(230, 2), .next(270, 3), .completed(320)])
        }

        @Test("Sample with a default value emits it when no new element arrived")
        func defaultValue() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([.next(210, 1)])
            let sampler = scheduler.createHotObservable([.next(220, ()), .next(230, ())])
            let observer = scheduler.start { source.sample(sampler, defaultValue: 0) }
            #expect(observer.events == [.next(220, 1), .next(230, 0)])
        }
    }
}
