import RxCore
import Testing

extension RxCoreTests {
    @Suite("groupBy")
    struct GroupByTests {
        @Test("GroupBy emits one group per key and routes each element to its group")
        func groups() {
            var log: [String] = []
            let subscriptions = CompositeDisposable()
            let outer = Observable.of(1, 2, 3, 4, 5).groupBy { $0 % 2 == 0 ? "even" : "odd" }
                .subscribe(onNext: { group in
                    log.append("group \(group.key)")
                    _ = subscriptions.insert(
                        group.subscribe(
                            onNext: { log.append("\(group.key) \($0)") },
                            onCompleted: { log.append("\(group.key) done") }))
                })
            #expect(
                log == [
                    "group odd", "odd 1", "group even", "even 2", "odd 3", "even 4", "odd 5", "odd done",
                    "even done",
                ])
            outer.dispose()
            subscriptions.dispose()
        }

        @Test("An error thrown by the key selector fails the groups and the outer sequence")
        func keySelectorThrows() {
            var groupEvents: [Event<Int>] = []
            let subscriptions = CompositeDisposable()
            let outer = Observable.of(1, 2).groupBy { value -> Int in
                if value == 2 { throw TestError(1) }
                return value
            }
            let events = synchronousEvents(
                of: outer.do(onNext: { group in
                    _ = subscriptions.insert(group.subscribe { groupEvents.append($0) })
                })
                .map { $0.key })
            #expect(events == [.next(1), .error(TestError(1))])
            #expect(groupEvents == [.next(1), .error(TestError(1))])
            subscriptions.dispose()
        }
    }
}
