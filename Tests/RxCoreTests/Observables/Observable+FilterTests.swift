import RxCore
import Testing

extension RxCoreTests {
    @Suite("filter")
    struct FilterTests {
        @Test("Filter emits only the elements that satisfy the predicate")
        func keepsMatchingElements() {
            #expect(
                synchronousEvents(of: Observable.of(1, 2, 3, 4, 5, 6).filter { $0 % 2 == 0 })
                    == [.next(2), .next(4), .next(6), .completed])
        }

        @Test("An error thrown by the predicate terminates the sequence")
        func thrownErrorTerminates() {
            let events = synchronousEvents(
                of: Observable.of(1, 2, 3).filter { value in
                    if value == 2 { throw TestError(9) }
                    return true
                })
            #expect(events == [.next(1), .error(TestError(9))])
        }

        @Test("A subject feeding map, filter and subscribe delivers the filtered, mapped elements")
        func subjectMapFilterChain() {
            let subject = PublishSubject<Int>()
            var received: [Int] = []
            var completed = false
            let subscription = subject.map { $0 * 2 }.filter { $0 % 3 != 0 }
                .subscribe(onNext: { received.append($0) }, onCompleted: { completed = true })
            for value in 1...6 {
                subject.onNext(value)
            }
            subject.onCompleted()
            #expect(received == [2, 4, 8, 10])
            #expect(completed)
            subscription.dispose()
        }
    }
}
