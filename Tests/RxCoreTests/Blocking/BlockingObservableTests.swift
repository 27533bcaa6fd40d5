import Dispatch
import RxCore
import Testing

extension RxCoreTests {
    @Suite("toBlocking")
    struct BlockingObservableTests {
        @Test("ToArray, first and last wait for the sequence")
        func toArrayFirstLast() throws {
            let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "blocking-test")
            let source = Observable.of(1, 2, 3).observe(on: scheduler)
            #expect(try source.toBlocking().toArray() == [1, 2, 3])
            #expect(try source.toBlocking().first() == 1)
            #expect(try source.toBlocking().last() == 3)
            #expect(try Observable<Int>.empty().toBlocking().first() == nil)
        }

        @Test("Single checks that there is exactly one element")
        func single() throws {
            #expect(try Observable.just(4).toBlocking().single() == 4)
            #expect(throws: RxError.self) { try Observable<Int>.empty().toBlocking().single() }
            #expect(throws: RxError.self) { try Observable.of(1, 2).toBlocking().single() }
        }

        @Test(
            "Single stops at the second accepted element: the predicate sees no later one, and an endless sequence still answers"
        )
        func singleStopsAtTheSecondMatch() throws {
            var seen: [Int] = []
            #expect(throws: RxError.self) {
                try Observable.of(42, 43, 44, 45).toBlocking().single {
                    seen.append($0)
                    return $0 % 2 == 0
                }
            }
            #expect(seen == [42, 43, 44])
            let endless = Observable.of(1, 2).concat(Observable<Int>.never())
            #expect(throws: RxError.self) { try endless.toBlocking().single() }
            #expect(try Observable.of(1, 2, 3).toBlocking().single { $0 == 2 } == 2)
            #expect(throws: TestError.self) {
                try Observable.of(1, 2).toBlocking().single { _ in throw TestError(7) }
            }
        }

        @Test("Materialize reports the elements and how the sequence ended; a timeout is a failure")
        func materializeAndTimeout() throws {
            guard case .completed(let elements) = Observable.of(1, 2).toBlocking().materialize() else {
                Issue.record("expected completion")
                return
            }
            #expect(elements == [1, 2])
            guard
                case .failed(let failedElements, let error) = Observable.concat(
                    .just(1), .error(TestError(2))
                )
                .toBlocking().materialize()
            else {
                Issue.record("expected failure")
                return
            }
            #expect(failedElements == [1])
            #expect(error as? TestError == TestError(2))
            #expect(throws: RxError.self) { try Observable<Int>.never().toBlocking(timeout: 0.05).toArray() }
        }
    }
}
