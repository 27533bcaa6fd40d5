import RxCore
import Synchronization
import Testing

/// A task-local value, to tell a task that inherits its creator's context from a detached one.
private enum FromProbe {
    @TaskLocal static var name: String?
}

/// Counts calls from any task.
private final class Calls: Sendable {
    private let count = Atomic<Int>(0)

    /// Adds one and returns the new count.
    func increment() -> Int { count.wrappingAdd(1, ordering: .relaxed).newValue }
}

extension RxCoreTests {
    @Suite("Traits from async functions")
    struct TraitsAsyncFromTests {
        @Test("Single.from succeeds with what the block returns and fails with what it throws")
        func singleFrom() async throws {
            #expect(try await Single.from { 40 + 2 }.value == 42)
            await #expect(throws: TestError(3)) { try await Single<Int>.from { throw TestError(3) }.value }
        }

        @Test("Single.from runs the block again for each subscription")
        func singleFromPerSubscription() async throws {
            let calls = Calls()
            let single = Single<Int>.from { calls.increment() }
            #expect(try await single.value == 1)
            #expect(try await single.value == 2)
        }

        @Test("Single.from runs the block in a task that inherits task-locals, unless detached")
        func singleFromDetached() async throws {
            let attached = Single<String?>.from { FromProbe.name }
            let detached = Single<String?>.from(priority: .low, detached: true) { FromProbe.name }
            #expect(try await FromProbe.$name.withValue("outer") { try await attached.value } == "outer")
            #expect(try await FromProbe.$name.withValue("outer") { try await detached.value } == nil)
        }

        @Test("Disposing a subscription to Single.from cancels the block's task and emits nothing")
        func singleFromDisposed() async {
            let started = Flag()
            let cancelled = Flag()
            let emitted = Flag()
            let subscription = Single<Int>.from {
                started.raise()
                while !Task.isCancelled { await Task.yield() }
                cancelled.raise()
                return 1
            }.subscribe { _ in emitted.raise() }
            #expect(await started.wait())
            subscription.dispose()
            #expect(await cancelled.wait())
            try? await Task.sleep(for: .milliseconds(20))
            #expect(!emitted.isRaised)
        }

        @Test(
            "Maybe.from emits what the block returns, fails with what it throws, and completes empty without a block"
        )
        func maybeFrom() async throws {
            #expect(try await Maybe.from { "Hello" }.value == "Hello")
            await #expect(throws: TestError(4)) { try await Maybe<String>.from { throw TestError(4) }.value }
            let empty: Maybe<String> = Maybe.from(nil)
            #expect(try await empty.value == nil)
        }

        @Test("Completable.from completes when the block returns and fails with what it throws")
        func completableFrom() async throws {
            let calls = Calls()
            try await Completable.from { _ = calls.increment() }.value
            #expect(calls.increment() == 2)
            await #expect(throws: TestError(5)) { try await Completable.from { throw TestError(5) }.value }
        }

        @Test("Infallible.from emits what the block returns, then completes")
        func infallibleFrom() async {
            var received: [Int] = []
            for await value in Infallible.from({ 7 }).values { received.append(value) }
            #expect(received == [7])
        }

        @Test("Driver.from drives what the block returns, or the fallback element when it throws")
        @MainActor
        func driverFrom() async {
            var received: [Int] = []
            for await value in Driver.from({ 1 }, onErrorJustReturn: -1).values { received.append(value) }
            for await value in Driver<Int>.from({ throw TestError(6) }, onErrorJustReturn: -1).values {
                received.append(value)
            }
            for await value in Driver<Int>.from({ throw TestError(6) }, onErrorDriveWith: .just(-2)).values {
                received.append(value)
            }
            for await value in Driver<Int>.from({ throw TestError(6) }, onErrorRecover: { _ in .just(-3) })
                .values
            {
                received.append(value)
            }
            #expect(received == [1, -1, -2, -3])
        }

        @Test("Signal.from emits what the block returns, or continues with the fallback when it throws")
        @MainActor
        func signalFrom() async {
            var received: [Int] = []
            for await value in Signal.from({ 1 }, onErrorJustReturn: -1).values { received.append(value) }
            for await value in Signal<Int>.from({ throw TestError(6) }, onErrorJustReturn: -1).values {
                received.append(value)
            }
            for await value in Signal<Int>.from({ throw TestError(6) }, onErrorSignalWith: .just(-2)).values {
                received.append(value)
            }
            for await value in Signal<Int>.from({ throw TestError(6) }, onErrorRecover: { _ in .just(-3) })
                .values
            {
                received.append(value)
            }
            #expect(received == [1, -1, -2, -3])
        }
    }
}
