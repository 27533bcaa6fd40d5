import RxCore
import Testing

extension RxCoreTests {
    @Suite("generate")
    struct GenerateTests {
        @Test("Generate emits states while the condition holds, one action per state")
        func finite() {
            let scheduler = TestScheduler(initialClock: 0)
            let observer = scheduler.start {
                Observable.generate(initialState: 0, condition: { $0 <= 3 }, scheduler: scheduler) { $0 + 1 }
            }
            #expect(
                observer.events == [
                    .next(201, 0), .next(202, 1), .next(203, 2), .next(204, 3), .completed(205),
                ])
        }

        @Test("An error thrown by the condition or iterate is emitted")
        func throwing() {
            let iterate = { (state: Int) throws -> Int in
                if state == 1 { throw TestError(1) }
                return state + 1
            }
            let failing = Observable.generate(initialState: 0, condition: { _ in true }, iterate: iterate)
            #expect(synchronousEvents(of: failing) == [.next(0), .next(1), .error(TestError(1))])
        }
    }
}
