import Foundation
import RxCore
import Synchronization

/// An error for tests; errors with the same code compare equal in recorded events.
struct TestError: Error, Equatable, CustomStringConvertible {
    let code: Int

    init(_ code: Int = 0) {
        self.code = code
    }

    var description: String { "TestError(\(code))" }
}

/// Carries a non-`Sendable` value into `@Sendable` test closures (threads, dispatch work) whose
/// synchronization is what the test is about.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Records the events of a subscription, from any thread, and detects overlapping delivery:
/// `overlaps` counts events that arrived while another one was being handled.
final class EventRecorder<Element>: ObserverType, @unchecked Sendable {
    // Guards `recorded`.
    private let lock = NSLock()
    private var recorded: [Event<Element>] = []
    private let inside = Atomic<Bool>(false)
    private let overlapCount = Atomic<Int>(0)

    func on(_ event: Event<Element>) {
        if inside.exchange(true, ordering: .acquiringAndReleasing) {
            overlapCount.add(1, ordering: .relaxed)
        }
        lock.lock()
        recorded.append(event)
        lock.unlock()
        // Widen the window in which an overlapping delivery would be caught.
        for _ in 0..<400 { _ = inside.load(ordering: .relaxed) }
        inside.store(false, ordering: .releasing)
    }

    var events: [Event<Element>] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    var elements: [Element] { events.compactMap(\.element) }

    var overlaps: Int { overlapCount.load(ordering: .relaxed) }

    /// Whether the events follow `next* (error | completed)?`.
    var grammarHolds: Bool {
        let events = self.events
        guard let firstStop = events.firstIndex(where: \.isStopEvent) else { return true }
        return firstStop == events.count - 1
    }
}

/// Subscribes to `source`, which must complete or fail synchronously, and returns its events.
func synchronousEvents<Source: ObservableType>(of source: Source) -> [Event<Source.Element>] {
    let recorder = EventRecorder<Source.Element>()
    let subscription = source.subscribe(recorder)
    subscription.dispose()
    return recorder.events
}

/// Runs `body(0)`, …, `body(count - 1)` on `count` new threads that start together (a spin
/// barrier), and returns when all have been joined. Joining guarantees that whatever `body`
/// captured has been released, which the resource check relies on.
func runConcurrently(threads count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let started = Atomic<Int>(0)
    let run = Unchecked((body, count))
    var threads: [pthread_t] = []
    for index in 0..<count {
        let work = ThreadWork {
            started.add(1, ordering: .acquiringAndReleasing)
            while started.load(ordering: .acquiring) < run.value.1 {}
            run.value.0(index)
        }
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { raw in
                Unmanaged<ThreadWork>.fromOpaque(raw!).takeRetainedValue().run()
                return nil
            }, Unmanaged.passRetained(work).toOpaque())
        precondition(result == 0, "pthread_create failed")
        threads.append(thread)
    }
    for thread in threads {
        pthread_join(thread, nil)
    }
}

/// The closure run by one thread of ``runConcurrently(threads:_:)``.
private final class ThreadWork {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

/// A thread-safe list of subscriptions to dispose at the end of a test.
final class SubscriptionList: @unchecked Sendable {
    // Guards `subscriptions`.
    private let lock = NSLock()
    private var subscriptions: [Disposable] = []

    func append(_ subscription: Disposable) {
        lock.lock()
        subscriptions.append(subscription)
        lock.unlock()
    }

    func disposeAll() {
        lock.lock()
        let all = subscriptions
        subscriptions = []
        lock.unlock()
        for subscription in all {
            subscription.dispose()
        }
    }
}

/// A list that threads can append to.
final class LockedList<Item>: @unchecked Sendable {
    // Guards `storage`.
    private let lock = NSLock()
    private var storage: [Item] = []

    func append(_ item: Item) {
        lock.lock()
        storage.append(item)
        lock.unlock()
    }

    var items: [Item] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}

/// A flag raised from any thread or task, which a test can wait for.
final class Flag: Sendable {
    private let raised = Atomic<Bool>(false)

    func raise() { raised.store(true, ordering: .releasing) }

    var isRaised: Bool { raised.load(ordering: .acquiring) }

    /// Waits (in 1 ms steps, at most 5 s) until the flag is raised; returns whether it was.
    func wait() async -> Bool {
        for _ in 0..<5_000 where !isRaised {
            try? await Task.sleep(for: .milliseconds(1))
        }
        return isRaised
    }
}
