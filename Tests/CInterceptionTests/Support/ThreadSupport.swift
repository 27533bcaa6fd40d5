// Threads for the stress suites: real pthreads that start together and are joined, so the work
// really overlaps (a task group on the cooperative pool may run its children one after another on
// a two-core machine), and a time budget that bounds a run without ever being asserted on.
// Shared state the threads write goes through TestLock (InterceptTestSupport.swift), which
// ThreadSanitizer sees, or atomics.
import Glibc
import Synchronization

/// Runs `body(index)` for every index in `0..<count`, each on its own new thread. The threads
/// wait for each other before running `body` (a start barrier) and are all joined before this
/// returns, so whatever `body` captured is released and every effect is visible to the caller.
func runOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let arrived = Atomic<Int>(0)
    let work = ThreadBody(body)
    var threads: [pthread_t] = []
    for index in 0..<count {
        let start = ThreadStart {
            arrived.add(1, ordering: .acquiringAndReleasing)
            while arrived.load(ordering: .acquiring) < count { _ = sched_yield() }
            work.body(index)
        }
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { raw in
                Unmanaged<ThreadStart>.fromOpaque(raw!).takeRetainedValue().run()
                return nil
            }, Unmanaged.passRetained(start).toOpaque())
        precondition(result == 0, "pthread_create failed: \(result)")
        threads.append(thread)
    }
    for thread in threads {
        pthread_join(thread, nil)
    }
}

private final class ThreadBody: Sendable {
    let body: @Sendable (Int) -> Void
    init(_ body: @escaping @Sendable (Int) -> Void) { self.body = body }
}

private final class ThreadStart {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

/// How long a stress loop may run: a fixed amount of work, sized to take about a second on an
/// idle machine, cut short at `seconds` so that a slow run (ThreadSanitizer multiplies the cost of
/// every access; CI machines are shared) stays bounded. Loops must assert on what they did, never
/// on how long it took or how far they got.
struct StressBudget: Sendable {
    let iterations: Int
    let deadline: ContinuousClock.Instant

    init(iterations: Int, seconds: Double) {
        self.iterations = iterations
        deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    }

    /// Whether iteration `i` may run. Reads the clock every 32 iterations only.
    func allows(_ i: Int) -> Bool {
        i < iterations && (i % 32 != 0 || ContinuousClock.now < deadline)
    }

    var expired: Bool { ContinuousClock.now >= deadline }
}

/// Seconds elapsed since `start`, for the suites' reports.
func secondsSince(_ start: ContinuousClock.Instant) -> Double {
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}

/// `seconds` with two decimals, for reports.
func formatSeconds(_ seconds: Double) -> String {
    let hundredths = Int((seconds * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}
