import RxCore
import Synchronization
import Testing

/// A task-local value, to tell a task that inherits its creator's context from a detached one.
private enum Probe {
    @TaskLocal static var name: String?
}

/// Awaits `trait.value` in a new task, cancels that task once `subscribed` is raised, and returns
/// the task's outcome.
private func cancelWhileWaiting<Value: Sendable>(
    subscribed: Flag, _ value: @escaping @Sendable () async throws -> Value
) async -> Result<Value, Error> {
    let task = Task { try await value() }
    _ = await subscribed.wait()
    task.cancel()
    return await task.result
}

extension RxCoreTests {
    @Suite("PrimitiveSequence concurrency")
    struct PrimitiveSequenceConcurrencyTests {
        // MARK: Single

        @Test("Awaiting a single's value returns its element")
        func singleValue() async throws {
            let value = try await Single.just("Hello").value
            #expect(value == "Hello")
        }

        @Test("Awaiting a failing single's value throws its error")
        func singleError() async {
            await #expect(throws: TestError(1)) { try await Single<String>.error(TestError(1)).value }
        }

        @Test(
            "Cancelling the task that awaits a single disposes the subscription and throws CancellationError")
        func singleCancelledWhileWaiting() async {
            let subscribed = Flag()
            let disposed = Flag()
            let single = Unchecked(
                Single<Int>.never().do(onSubscribed: { subscribed.raise() }, onDispose: { disposed.raise() }))
            let result = await cancelWhileWaiting(subscribed: subscribed) { try await single.value.value }
            #expect(throws: CancellationError.self) { try result.get() }
            #expect(disposed.isRaised)
        }

        @Test("A task cancelled before it awaits still gets a single that succeeds at once")
        func singleSynchronousInCancelledTask() async throws {
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await Single.just(5).value
            }
            #expect(try await task.value == 5)
        }

        @Test("A task cancelled before it awaits a single that never ends throws CancellationError")
        func singleNeverInCancelledTask() async {
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await Single<Int>.never().value
            }
            await #expect(throws: CancellationError.self) { try await task.value }
        }

        // MARK: Single.create(detached:priority:work:)

        @Test("Single.create(work:) succeeds with what the async work returns, and fails with what it throws")
        func createFromAsyncWork() async throws {
            #expect(try await Single.create { 40 + 2 }.value == 42)
            await #expect(throws: TestError(3)) {
                try await Single<Int>.create { throw TestError(3) }.value
            }
        }

        @Test("Each subscription runs the work again")
        func createRunsWorkPerSubscription() async throws {
            let runs = Counter()
            let single = Single<Int>.create { runs.increment() }
            #expect(try await single.value == 1)
            #expect(try await single.value == 2)
        }

        @Test("The work runs in a task that inherits the subscriber's task-locals, unless detached")
        func createDetached() async throws {
            let attached = Single<String?>.create { Probe.name }
            let detached = Single<String?>.create(detached: true, priority: .low) { Probe.name }
            let seenAttached = try await Probe.$name.withValue("outer") { try await attached.value }
            let seenDetached = try await Probe.$name.withValue("outer") { try await detached.value }
            #expect(seenAttached == "outer")
            #expect(seenDetached == nil)
        }

        @Test("Disposing the subscription cancels the task running the work")
        func disposingCancelsTheWork() async {
            let started = Flag()
            let cancelled = Flag()
            let single = Single<Int>.create {
                started.raise()
                do {
                    try await Task.sleep(for: .seconds(30))
                } catch {
                    cancelled.raise()
                    throw error
                }
                return 1
            }
            let delivered = Flag()
            let subscription = single.subscribe(
                onSuccess: { _ in delivered.raise() }, onFailure: { _ in delivered.raise() })
            #expect(await started.wait())
            subscription.dispose()
            #expect(await cancelled.wait())
            #expect(!delivered.isRaised)
        }

        @Test("A single made from async work can be read with toBlocking, as RxSwift's test does")
        func createFromAsyncWorkBlocking() {
            let elements = Unchecked(LockedList<Int>())
            runConcurrently(threads: 1) { _ in
                let single = Single<Int>.create { 77 }
                for element in (try? single.toBlocking(timeout: 5).toArray()) ?? [] {
                    elements.value.append(element)
                }
            }
            #expect(elements.value.items == [77])
        }

        // MARK: Maybe

        @Test("Awaiting a maybe gives its element, or nil when it completes empty")
        func maybeValue() async throws {
            #expect(try await Maybe.just("Hello").value == "Hello")
            #expect(try await Maybe<String>.empty().value == nil)
        }

        @Test("Awaiting a failing maybe throws its error")
        func maybeError() async {
            await #expect(throws: TestError(2)) { try await Maybe<String>.error(TestError(2)).value }
        }

        @Test(
            "Cancelling the task that awaits a maybe disposes the subscription and throws CancellationError")
        func maybeCancelledWhileWaiting() async {
            let subscribed = Flag()
            let disposed = Flag()
            let maybe = Unchecked(
                Maybe<Int>.never().do(onSubscribed: { subscribed.raise() }, onDispose: { disposed.raise() }))
            let result = await cancelWhileWaiting(subscribed: subscribed) { try await maybe.value.value }
            #expect(throws: CancellationError.self) { try result.get() }
            #expect(disposed.isRaised)
        }

        @Test("An empty maybe awaited in a cancelled task gives nil, not CancellationError")
        func maybeEmptyInCancelledTask() async throws {
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await Maybe<Int>.empty().value
            }
            #expect(try await task.value == nil)
        }

        // MARK: Completable

        @Test("Awaiting a completable returns when it completes and throws its error")
        func completableValue() async throws {
            let value: Void = try await Completable.empty().value
            #expect(value == ())
            await #expect(throws: TestError(4)) { try await Completable.error(TestError(4)).value }
        }

        @Test(
            "Cancelling the task that awaits a completable disposes the subscription and throws CancellationError"
        )
        func completableCancelledWhileWaiting() async {
            let subscribed = Flag()
            let disposed = Flag()
            let completable = Unchecked(
                Completable.never().do(onSubscribed: { subscribed.raise() }, onDispose: { disposed.raise() }))
            let result = await cancelWhileWaiting(subscribed: subscribed) {
                try await completable.value.value
            }
            #expect(throws: CancellationError.self) { try result.get() }
            #expect(disposed.isRaised)
        }

        @Test("An empty completable awaited in a cancelled task completes, not CancellationError")
        func completableEmptyInCancelledTask() async throws {
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                try await Completable.empty().value
            }
            try await task.value
        }
    }
}

/// A counter shared with `@Sendable` closures.
private final class Counter: Sendable {
    private let count = Atomic<Int>(0)

    /// Adds one and returns the new count.
    func increment() -> Int { count.wrappingAdd(1, ordering: .relaxed).newValue }
}
