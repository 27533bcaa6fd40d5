/// The base of the sinks of the time-based operators (`debounce`, `delay`, `throttle`,
/// `timeout`, `buffer`, `window`): a ``ParameterSink`` with the lock and the timer slot they all
/// need.
///
/// `lock` is recursive because a scheduler may run an action at once, from inside a call that
/// holds it (a timer scheduled with a zero due time on an immediate scheduler). It guards the
/// subclass's state and is held while forwarding, except by `delay` (see its sink). `timer` holds
/// the pending timer; disposing the subscription disposes it (see ``SourceProducer/run(timed:)``).
class TimedSink<Parameters, Observer: ObserverType>: ParameterSink<Parameters, Observer> {
    final let lock = RxLock(recursive: true)
    final let timer = SerialDisposable()
}

extension SourceProducer {
    /// Subscribes `sink` to the source and returns both, the subscription disposing the sink's
    /// timer too: the `run` of a time-based operator whose sink needs nothing else at the start.
    @inline(__always)
    final func run<TimerParameters, Observer, SinkType: TimedSink<TimerParameters, Observer> & ObserverType>(
        timed sink: SinkType
    ) -> (sink: Disposable, subscription: Disposable) where SinkType.Element == Source {
        (sink, Disposables.create(source.subscribe(sink), sink.timer))
    }
}
