import RxCore
import Testing

extension RxCoreTests {
    @Suite("Event")
    struct EventTests {
        @Test("An event describes itself as RxSwift prints it")
        func descriptionMatchesRxSwift() {
            #expect(Event.next(1).description == "next(1)")
            #expect(Event<Int>.completed.description == "completed")
            #expect(Event<Int>.error(TestError(3)).description == "error(TestError(3))")
            #expect("\(Event.next("a"))" == "next(a)")
            #expect(Event.next(1).debugDescription == "next(1)")
        }

        @Test("An event exposes its element, error and kind")
        func accessorsReflectTheCase() {
            #expect(Event.next(1).element == 1)
            #expect(Event.next(1).error == nil)
            #expect(!Event.next(1).isStopEvent)
            #expect(Event<Int>.completed.isStopEvent)
            #expect(Event<Int>.completed.isCompleted)
            #expect(Event<Int>.error(TestError()).isStopEvent)
            #expect(Event<Int>.error(TestError(7)).error as? TestError == TestError(7))
            #expect(Event<Int>.error(TestError()).element == nil)
        }

        @Test("Mapping an event transforms only a next element and turns a thrown error into an error event")
        func mapTransformsNextOnly() {
            #expect(Event.next(2).map { $0 * 10 } == .next(20))
            #expect(Event<Int>.completed.map { $0 * 10 } == .completed)
            #expect(Event.next(2).map { _ -> Int in throw TestError(1) } == .error(TestError(1)))
        }

        @Test("Events compare equal by kind, element and error")
        func equality() {
            #expect(Event.next(1) == .next(1))
            #expect(Event.next(1) != .next(2))
            #expect(Event<Int>.error(TestError(1)) == .error(TestError(1)))
            #expect(Event<Int>.error(TestError(1)) != .error(TestError(2)))
            #expect(Event<Int>.completed != .next(1))
        }
    }
}
