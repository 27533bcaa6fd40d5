import Foundation
import RxCore
import Synchronization

/// What the subject delivery stress tests count on their worker threads; the tests check it after
/// joining them (an issue recorded on a thread of its own is not attributed to the test).
final class DeliveryTally: Sendable {
    /// Probes deinitialized while one of their elements was being received.
    let deinitsDuringReceive = StressCounter()
    /// Elements received while another was being received by the same observer.
    let overlaps = StressCounter()
    /// Elements not greater than the one the same observer received before (a duplicate, or
    /// out of order: the tests send increasing elements from one thread).
    let outOfOrder = StressCounter()
    /// Elements received, by every observer.
    let received = StressCounter()
    /// Probes alive.
    let liveProbes = StressCounter()
    /// Observers that disposed their own subscription from their `onNext`.
    let selfDisposals = StressCounter()
    /// Elements received by an observer after it disposed itself from its `onNext`.
    let afterSelfDisposal = StressCounter()
}

/// A counter that threads add to.
final class StressCounter: Sendable {
    private let value = Atomic<Int>(0)

    func add(_ delta: Int = 1) {
        value.add(delta, ordering: .sequentiallyConsistent)
    }

    /// The count, read after the threads that changed it were joined.
    var count: Int { value.load(ordering: .sequentiallyConsistent) }
}

/// What an observer's code uses while it receives an element, owned by the observer alone: its
/// deinitializer reports to the tally if it runs while an element is being received, which is
/// what a subject that frees an observer during a delivery to it would do. It also counts
/// overlapping and out-of-order elements.
final class LifetimeProbe: @unchecked Sendable {
    private let tally: DeliveryTally
    private let busy = Atomic<Bool>(false)
    private let last = Atomic<Int>(Int.min)
    /// Raised when the observer that owns the probe is deinitialized. A call into the observer
    /// may retain the probe for its duration (the debug build retains a closure's context), so
    /// the probe's own deinitializer alone would miss an observer freed under a delivery.
    private let observerGone = Atomic<Bool>(false)
    #if TRACE_RESOURCES
        /// The resources counted while the observer was made (a `subscribe(onNext:)` observer is
        /// one): never 0 while the observer lives.
        let observerScope = Resources.Scope()
    #endif

    init(_ tally: DeliveryTally) {
        self.tally = tally
        tally.liveProbes.add()
    }

    deinit {
        if busy.load(ordering: .sequentiallyConsistent) {
            tally.deinitsDuringReceive.add()
        }
        tally.liveProbes.add(-1)
    }

    /// Receives `element`: runs `action` (which may dispose the subscription), then stays busy a
    /// moment, so that a deinitialization or a concurrent delivery has a window to show.
    func receive(_ element: Int, then action: (Int) -> Void) {
        if busy.exchange(true, ordering: .sequentiallyConsistent) {
            tally.overlaps.add()
        }
        if last.exchange(element, ordering: .relaxed) >= element {
            tally.outOfOrder.add()
        }
        tally.received.add()
        action(element)
        for _ in 0..<50 { _ = last.load(ordering: .relaxed) }
        if observerGone.load(ordering: .sequentiallyConsistent) || observerFreedFromScope {
            tally.deinitsDuringReceive.add()
        }
        busy.store(false, ordering: .sequentiallyConsistent)
    }

    /// Called by the deinitializer of the observer that owns the probe.
    func observerDeinitialized() {
        observerGone.store(true, ordering: .sequentiallyConsistent)
    }

    /// Whether the observer, made in `observerScope` and counted there, no longer is.
    var tracksObserverInScope = false

    private var observerFreedFromScope: Bool {
        #if TRACE_RESOURCES
            return tracksObserverInScope && observerScope.total == 0
        #else
            return false
        #endif
    }
}

/// The subjects whose delivery the stress tests exercise: the `SubjectCore` paths without a lock
/// per element (`PublishSubject`, `replaying: false`; `share`, `replaying: true`) and with one
/// (`BehaviorSubject`, `ReplaySubject`).
enum StressedSubject: CaseIterable, Sendable, CustomStringConvertible {
    case publish
    case behavior
    case replayOne
    case replayThree
    case shareReplayZero
    case shareReplayOne

    var description: String {
        switch self {
        case .publish: "PublishSubject"
        case .behavior: "BehaviorSubject"
        case .replayOne: "ReplaySubject(1)"
        case .replayThree: "ReplaySubject(3)"
        case .shareReplayZero: "share(replay: 0)"
        case .shareReplayOne: "share(replay: 1)"
        }
    }

    /// How many of the last elements sent a new observer receives first.
    var replayed: Int {
        switch self {
        case .publish, .shareReplayZero: 0
        case .behavior, .replayOne, .shareReplayOne: 1
        case .replayThree: 3
        }
    }

    /// A new subject of this kind.
    func make() -> StressedSubjectInstance {
        StressedSubjectInstance(self)
    }
}

/// A subject of one of the stressed kinds: what observers subscribe to, and how elements are
/// sent. A class with a method rather than a tuple holding `subject.onNext`: such a tuple, made
/// from an unlabeled one and stored generically (in `Unchecked`), was released once too often by
/// the debug build (Swift 6.3.1), which crashed the test on its own.
final class StressedSubjectInstance: @unchecked Sendable {
    let source: Observable<Int>
    private let subject: AnyObject

    init(_ kind: StressedSubject) {
        switch kind {
        case .publish:
            let subject = PublishSubject<Int>()
            (source, self.subject) = (subject, subject)
        case .behavior:
            let subject = BehaviorSubject<Int>(value: -1)
            (source, self.subject) = (subject, subject)
        case .replayOne, .replayThree:
            let subject = ReplaySubject<Int>.create(bufferSize: kind == .replayOne ? 1 : 3)
            (source, self.subject) = (subject, subject)
        case .shareReplayZero, .shareReplayOne:
            let subject = PublishSubject<Int>()
            source = subject.share(replay: kind == .shareReplayOne ? 1 : 0)
            self.subject = subject
        }
    }

    func send(_ element: Int) {
        switch subject {
        case let subject as PublishSubject<Int>: subject.onNext(element)
        case let subject as BehaviorSubject<Int>: subject.onNext(element)
        case let subject as ReplaySubject<Int>: subject.onNext(element)
        default: fatalError("not a stressed subject")
        }
    }
}

/// The kinds of observer a subject delivers to: the closure observer of `subscribe(onNext:)`,
/// which is its own element receiver (`_elementReceiver`), and observers of other modules that
/// the subject wraps, through the requirement's default or their own `nil`.
enum StressedObserver: CaseIterable, Sendable, CustomStringConvertible {
    case closure
    case classWithDefaultReceiver
    case structDeclaringNoReceiver

    var description: String {
        switch self {
        case .closure: "subscribe(onNext:)"
        case .classWithDefaultReceiver: "class, default _elementReceiver"
        case .structDeclaringNoReceiver: "struct, own _onNextElement and nil _elementReceiver"
        }
    }

    /// Subscribes to `source` an observer of this kind that owns `probe` (and nothing else
    /// does) and passes it each element, with `action`.
    func subscribe(
        to source: Observable<Int>, probe: LifetimeProbe, then action: @escaping (Int) -> Void = { _ in }
    ) -> Disposable {
        switch self {
        case .closure:
            #if TRACE_RESOURCES
                // Counts the observer in the probe's scope.
                probe.tracksObserverInScope = true
                return Resources.$currentScope.withValue(probe.observerScope) {
                    source.subscribe(onNext: { probe.receive($0, then: action) })
                }
            #else
                return source.subscribe(onNext: { probe.receive($0, then: action) })
            #endif
        case .classWithDefaultReceiver:
            return source.subscribe(ProbeClassObserver(probe: probe, action: action))
        case .structDeclaringNoReceiver:
            return source.subscribe(ProbeStructObserver(probe: probe, action: action))
        }
    }
}

/// An observer class that implements only `on(_:)`: no element receiver (the default).
private final class ProbeClassObserver: ObserverType {
    let probe: LifetimeProbe
    let action: (Int) -> Void

    init(probe: LifetimeProbe, action: @escaping (Int) -> Void) {
        self.probe = probe
        self.action = action
    }

    deinit {
        probe.observerDeinitialized()
    }

    func on(_ event: Event<Int>) {
        if case .next(let element) = event {
            probe.receive(element, then: action)
        }
    }
}

/// An observer struct that implements the element entry point and declares no element receiver.
private struct ProbeStructObserver: ObserverType {
    let probe: LifetimeProbe
    let action: (Int) -> Void

    func on(_ event: Event<Int>) {
        if case .next(let element) = event {
            probe.receive(element, then: action)
        }
    }

    func _onNextElement(_ element: Int) {
        probe.receive(element, then: action)
    }

    var _elementReceiver: AnyObject? {
        nil
    }
}

/// The subscription of an observer that disposes it from its own `onNext`. Filled after
/// `subscribe` returns; until then an element does not dispose it. The observer's reference to
/// the slot and the slot's to the subscription form a cycle, which disposing it breaks.
final class SelfDisposingSlot: @unchecked Sendable {
    // Guards `subscription`.
    private let lock = NSLock()
    private var subscription: Disposable?
    private let disposedItself = Atomic<Bool>(false)

    func fill(_ subscription: Disposable) {
        lock.lock()
        self.subscription = subscription
        lock.unlock()
    }

    /// Whether the observer disposed its subscription from its `onNext`.
    var isSelfDisposed: Bool { disposedItself.load(ordering: .sequentiallyConsistent) }

    /// The observer's action on each element: disposes the subscription, once filled, and drops
    /// it (after which only the subject's delivery under way keeps the observer alive); counts an
    /// element received after that.
    func observerReceived(_ tally: DeliveryTally) {
        if isSelfDisposed {
            tally.afterSelfDisposal.add()
            return
        }
        guard let subscription = take() else { return }
        subscription.dispose()
        disposedItself.store(true, ordering: .sequentiallyConsistent)
        tally.selfDisposals.add()
    }

    /// Disposes the subscription if the observer did not.
    func disposeRemaining() {
        take()?.dispose()
    }

    private func take() -> Disposable? {
        lock.lock()
        defer { lock.unlock() }
        let taken = subscription
        subscription = nil
        return taken
    }
}
