import RxCore
import Testing

extension RxCoreTests {
    @Suite("values")
    struct ValuesTests {
        @Test("Values iterates the elements of a sequence with for-try-await")
        func iteratesElements() async throws {
            var received: [Int] = []
            for try await value in Observable.of(1, 2, 3).values {
                received.append(value)
            }
            #expect(received == [1, 2, 3])
        }

        @Test("Values throws the error of the sequence")
        func throwsError() async {
            await #expect(throws: TestError(4)) {
                for try await _ in Observable.concat(.of(1), .error(TestError(4))).values {}
            }
        }

        @Test("Leaving the iteration early disposes the subscription")
        func earlyExitDisposes() async throws {
            let subject = BehaviorSubject(value: 1)
            for try await value in subject.values {
                #expect(value == 1)
                break
            }
            #expect(!subject.hasObservers)
        }

        @Test("Cancelling the iterating task throws CancellationError and disposes the subscription")
        func cancellationThrows() async throws {
            let subject = PublishSubject<Int>()
            let values = subject.values
            let task = Task {
                var received: [Int] = []
                for try await value in values {
                    received.append(value)
                }
                return received
            }
            // Wait until the iteration has subscribed, without wall-clock assertions.
            while !subject.hasObservers { await Task.yield() }
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
            #expect(!subject.hasObservers)
        }
    }
}
