import RxCore
import Testing

extension RxCoreTests {
    @Suite("take(while:)")
    struct TakeWhileTests {
        @Test("Take while emits elements while the predicate holds, then completes")
        func takesWhilePredicateHolds() {
            let source = Observable.of(1, 2, 5, 1)
            #expect(
                synchronousEvents(of: source.take(while: { $0 < 3 })) == [.next(1), .next(2), .completed])
            #expect(
                synchronousEvents(of: source.take(while: { $0 < 3 }, behavior: .inclusive))
                    == [.next(1), .next(2), .next(5), .completed])
        }

        @Test("An error thrown by the take-while predicate terminates the sequence")
        func thrownErrorTerminates() {
            let events = synchronousEvents(of: Observable.of(1).take(while: { _ in throw TestError(1) }))
            #expect(events == [.error(TestError(1))])
        }
    }
}
