import RxCore
import Testing

extension RxCoreTests {
    @Suite("AsyncSequence.asObservable")
    struct AsyncSequenceAsObservableTests {
        @Test("An async sequence as an observable emits its elements and completes")
        func elementsAndCompletion() async throws {
            let stream = AsyncStream<Int> { continuation in
                for value in 1...3 { continuation.yield(value) }
                continuation.finish()
            }
            var received: [Int] = []
            for try await value in stream.asObservable().values {
                received.append(value)
            }
            #expect(received == [1, 2, 3])
            await iteratingTasksEnded()
        }

        @Test("An async sequence that throws fails the observable")
        func error() async {
            let stream = AsyncThrowingStream<Int, Swift.Error> { continuation in
                continuation.yield(1)
                continuation.finish(throwing: TestError(2))
            }
            await #expect(throws: TestError(2)) {
                for try await _ in stream.asObservable().values {}
            }
            await iteratingTasksEnded()
        }

        @Test("An async sequence that throws CancellationError completes the observable, as in RxSwift")
        func cancellationErrorCompletes() async throws {
            let stream = AsyncThrowingStream<Int, Swift.Error> { continuation in
                continuation.yield(1)
                continuation.finish(throwing: CancellationError())
            }
            var received: [Int] = []
            for try await value in stream.asObservable().values { received.append(value) }
            #expect(received == [1])
            await iteratingTasksEnded()
        }

        @Test("A detached iteration does not inherit the subscriber's task-locals; an attached one does")
        func detachedIteration() async throws {
            let sequence = AsyncProbeSequence()
            let attached = try await AsyncProbe.$name.withValue("outer") {
                try await sequence.asObservable().toArray().value
            }
            let detached = try await AsyncProbe.$name.withValue("outer") {
                try await sequence.asObservable(detached: true).toArray().value
            }
            #expect(attached == ["outer"])
            #expect(detached == ["none"])
            await iteratingTasksEnded()
        }
    }
}

/// A task-local value, to tell a task that inherits its creator's context from a detached one.
private enum AsyncProbe {
    @TaskLocal static var name: String?
}

/// One element: the task-local name of the task iterating it ("none" if unset).
private struct AsyncProbeSequence: AsyncSequence, AsyncIteratorProtocol {
    var done = false
    mutating func next() async -> String? {
        if done { return nil }
        done = true
        return AsyncProbe.name ?? "none"
    }
    func makeAsyncIterator() -> AsyncProbeSequence { self }
}

/// Waits (a bounded number of scheduler turns) until the tasks that iterated async sequences
/// have ended and released their observers: the iterating task delivers the terminal event
/// before it returns, so the test can see the event before the task is gone. Checks nothing
/// itself; the resource check does.
private func iteratingTasksEnded() async {
    #if TRACE_RESOURCES
        for _ in 0..<1000 where (Resources.currentScope?.total ?? 0) != 0 {
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
    #endif
}
