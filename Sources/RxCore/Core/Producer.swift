import Synchronization

/// Base class of the operators: each subscription creates a sink (see ``Sink``) that receives the
/// upstream events, applies the operator and forwards the result to the observer.
///
/// Like RxSwift, a subscription made while no ``CurrentThreadScheduler`` trampoline runs on this
/// thread starts one: the sink is created inside the trampoline, and work that synchronous sources
/// (`of`, `from`, `range`, `repeatElement`) schedule while it runs is queued and executed in order
/// before `subscribe` returns. This is what fixes the interleaving of, for example, `flatMap` over
/// `Observable.of`.
@usableFromInline
class Producer<Element>: Observable<Element> {
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        // What `CurrentThreadScheduler.instance.schedule` does, without the escaping closure
        // (an allocation per subscription) that it needs because it may queue its action.
        let trampoline = Trampoline.current
        if trampoline.isRunning {
            return subscribeNow(observer)
        }
        return trampoline.run { subscribeNow(observer) }
    }

    private func subscribeNow<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        let disposer = SinkDisposer()
        let (sink, subscription) = run(observer, cancel: disposer)
        disposer.setSinkAndSubscription(sink: sink, subscription: subscription)
        return disposer
    }

    /// Creates the sink for `observer` and subscribes it upstream. `cancel` is the disposable that
    /// the sink disposes when it terminates; it disposes both returned disposables.
    func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        rxAbstractMethod()
    }
}

/// A producer that stores its operator's parameters, the sources included, as one value, so that
/// an operator's producer class declares nothing but its `run` (no stored properties, no
/// initializer). `Parameters` is usually a labeled tuple, read in `run` as `parameters.name`.
class ParameterProducer<Parameters, Element>: Producer<Element> {
    final let parameters: Parameters

    init(_ parameters: Parameters) {
        self.parameters = parameters
    }
}

/// A ``ParameterProducer`` for an operator over one source: `source` is kept apart from the
/// other parameters so that `run` can subscribe a sink to it with ``run(_:)``.
@usableFromInline
class SourceProducer<Source, Parameters, Element>: Producer<Element> {
    final let source: Observable<Source>
    final let parameters: Parameters

    @usableFromInline
    init(_ source: Observable<Source>, _ parameters: Parameters) {
        self.source = source
        self.parameters = parameters
    }

    /// Subscribes `sink` to the source and returns both: the whole `run` of most operators.
    @inline(__always)
    final func run<SinkType: ObserverType & Disposable>(_ sink: SinkType)
        -> (sink: Disposable, subscription: Disposable)
    where SinkType.Element == Source {
        (sink, source.subscribe(sink))
    }
}

/// The parameters of the operators that wait `dueTime` on `scheduler` (`debounce`, `delay`,
/// `delaySubscription`).
typealias DueTimeParameters = (dueTime: RxTimeInterval, scheduler: SchedulerType)

// The two usual bodies of `run`, so that an operator's `run` says only which sink it makes.
extension Producer {
    /// Subscribes `sink` to `source` and returns both: the `run` of an operator whose sink
    /// observes one source.
    @inline(__always)
    final func run<SinkType: ObserverType & Disposable>(
        _ sink: SinkType, observing source: Observable<SinkType.Element>
    )
        -> (sink: Disposable, subscription: Disposable)
    {
        (sink, source.subscribe(sink))
    }

    /// Returns `sink` with the subscription that `start` makes for it: the `run` of an operator
    /// whose sink subscribes to its sources, or schedules its work, itself.
    @inline(__always)
    final func run<SinkType: Disposable>(_ sink: SinkType, startedBy start: (SinkType) -> Disposable)
        -> (sink: Disposable, subscription: Disposable)
    {
        (sink, start(sink))
    }
}

/// The disposable returned for a ``Producer`` subscription. It owns the sink and the upstream
/// subscription and disposes both, whether `dispose()` comes before or after they are set.
final class SinkDisposer: Cancelable {
    private static let setFlag = 1
    private static let disposedFlag = 2

    // `sink` and `subscription` are written before `state` gets `setFlag` (release) and read only
    // by the one thread that observes both flags (acquire), so they need no lock.
    // For the same reason, Swift's dynamic exclusivity checks on them are redundant (and cost a
    // thread-local access-set insertion per access).
    private let state = Atomic<Int>(0)
    @exclusivity(unchecked) private var sink: Disposable?
    @exclusivity(unchecked) private var subscription: Disposable?

    var isDisposed: Bool {
        state.load(ordering: .acquiring) & Self.disposedFlag != 0
    }

    func setSinkAndSubscription(sink: Disposable, subscription: Disposable) {
        self.sink = sink
        self.subscription = subscription
        let previous = state.bitwiseOr(Self.setFlag, ordering: .acquiringAndReleasing).oldValue
        precondition(previous & Self.setFlag == 0, "Sink and subscription were already set")
        if previous & Self.disposedFlag != 0 {
            releaseAndDispose()
        }
    }

    func dispose() {
        let previous = state.bitwiseOr(Self.disposedFlag, ordering: .acquiringAndReleasing).oldValue
        if previous & Self.disposedFlag != 0 { return }
        if previous & Self.setFlag != 0 {
            releaseAndDispose()
        }
    }

    private func releaseAndDispose() {
        let sink = self.sink
        let subscription = self.subscription
        self.sink = nil
        self.subscription = nil
        sink?.dispose()
        subscription?.dispose()
    }
}
