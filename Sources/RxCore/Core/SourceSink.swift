/// A sink that observes one upstream sequence, its source.
///
/// Why: every such sink used to spell out the same `on(_:)`: hand `next` to the element handler,
/// forward a terminal event and dispose. Here that routing is written once; a conforming sink
/// implements ``ElementObserver/onNextElement(_:)`` and overrides ``onSourceError(_:)`` or
/// ``onSourceCompleted()`` only where its operator does something particular at the end.
///
/// It is a protocol with default implementations rather than a base class so that the call from
/// `on(_:)` to the conforming sink's handlers binds statically when the optimizer specializes the
/// default for the (final) sink class: no virtual call is added on the event path. Conforming
/// types are subclasses of ``Sink``, which provides the two forwarding requirements.
protocol SourceSink: ElementObserver {
    /// Receives the source's error. By default: forwards it and disposes the sink.
    func onSourceError(_ error: Swift.Error)

    /// Receives the source's completion. By default: forwards it and disposes the sink.
    func onSourceCompleted()

    /// Forwards `error` downstream and disposes the sink (``Sink`` implements it).
    func forwardErrorAndDispose(_ error: Swift.Error)

    /// Forwards `completed` downstream and disposes the sink (``Sink`` implements it).
    func forwardCompletedAndDispose()
}

extension SourceSink {
    /// Routes one event of the source to the handler of its kind.
    @inline(__always)
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNextElement(element)
        case .error(let error):
            onSourceError(error)
        case .completed:
            onSourceCompleted()
        }
    }

    /// Completion of the source without an `Event`: ``onSourceCompleted()``, as `on(_:)` routes
    /// it.
    func _onCompleted() {
        onSourceCompleted()
    }

    func onSourceError(_ error: Swift.Error) {
        forwardErrorAndDispose(error)
    }

    func onSourceCompleted() {
        forwardCompletedAndDispose()
    }
}
