import Synchronization

/// Base class of the per-subscription objects of operators.
///
/// A sink forwards events to its observer until it is disposed; disposing it (which operators do
/// right after forwarding a terminal event) also disposes `cancel`, the ``SinkDisposer`` that owns
/// the upstream subscription. The `disposed` flag is the only state shared between threads here.
class Sink<Observer: ObserverType>: Disposable {
    final let observer: Observer
    final let cancel: Cancelable
    private let disposed = Atomic<Bool>(false)

    #if TRACE_RESOURCES
        private let resourceCount = ResourceCount()
    #endif

    init(observer: Observer, cancel: Cancelable) {
        self.observer = observer
        self.cancel = cancel
    }

    /// Delivers `event` to the observer unless the sink was disposed.
    @inline(__always)
    final func forwardOn(_ event: Event<Observer.Element>) {
        if disposed.load(ordering: .relaxed) { return }
        observer.on(event)
    }

    /// Forwards `error` and disposes the sink. Kept out of line so that the metadata lookup of
    /// building the `error` event stays off the element paths that call it.
    @inline(never)
    final func forwardErrorAndDispose(_ error: Swift.Error) {
        forwardOn(.error(error))
        dispose()
    }

    /// Forwards `completed` and disposes the sink. Out of line for the same reason as
    /// ``forwardErrorAndDispose(_:)``.
    @inline(never)
    final func forwardCompletedAndDispose() {
        if !disposed.load(ordering: .relaxed) {
            observer._onCompleted()
        }
        dispose()
    }

    /// An observer that forwards to this sink's observer while the sink is not disposed.
    final func forwarder() -> SinkForwarder<Observer> {
        SinkForwarder(forwardTo: self)
    }

    final var isDisposed: Bool {
        @inline(__always) get { disposed.load(ordering: .relaxed) }
    }

    func dispose() {
        if disposed.exchange(true, ordering: .relaxed) { return }
        cancel.dispose()
    }
}

extension Sink {
    /// Runs `action` on the ``CurrentThreadScheduler`` trampoline unless the sink is disposed by
    /// then: how `concat` and `retry` move on to their next subscription, so that sources that
    /// terminate synchronously are subscribed in a loop rather than by recursion.
    final func onTrampoline(_ action: @escaping () -> Void) {
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            if !self.isDisposed {
                action()
            }
            return Disposables.create()
        }
    }
}

/// A sink that hands its elements to the observer with `_onNextElement`, the path that skips
/// building `next` events (see ``ElementObserver``).
class ElementSink<Observer: ObserverType>: Sink<Observer> {
    /// Hands `element` to the observer unless the sink was disposed: the `onNextElement` of a
    /// sink that passes its sources' elements through unchanged.
    @inline(__always)
    final func forwardNext(_ element: Observer.Element) {
        if isDisposed { return }
        observer._onNextElement(element)
    }
}

/// A ``Sink`` that keeps its operator's parameters as one value, usually the producer's labeled
/// `parameters` tuple (see ``ParameterProducer``), read as `parameters.name`.
///
/// Why: a sink whose fixed state is just its operator's parameters then declares no stored
/// property per parameter and no initializer that copies them, and every producer makes its
/// sink the same way, `XSink(parameters, observer: observer, cancel: cancel)`. The tuple is
/// stored inline, so reading a parameter costs what reading a stored property of its own did.
class ParameterSink<Parameters, Observer: ObserverType>: Sink<Observer> {
    final let parameters: Parameters

    init(_ parameters: Parameters, observer: Observer, cancel: Cancelable) {
        self.parameters = parameters
        super.init(observer: observer, cancel: cancel)
    }
}

/// An observer that forwards to a sink's observer (used by operators that subscribe the
/// downstream observer to another sequence, such as `catch` or `concat`).
struct SinkForwarder<Observer: ObserverType>: ObserverType {
    typealias Element = Observer.Element

    private let sink: Sink<Observer>

    init(forwardTo sink: Sink<Observer>) {
        self.sink = sink
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            sink.forwardOn(event)
        case .error, .completed:
            sink.forwardOn(event)
            sink.dispose()
        }
    }
}
