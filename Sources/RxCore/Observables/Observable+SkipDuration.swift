import Synchronization

extension ObservableType {
    /// Drops the elements that arrive within `duration` of the subscription (measured on
    /// `scheduler`) and emits the rest. Terminal events are emitted at any time.
    public func skip(_ duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        SkipDuration(asObservable(), (duration: duration, scheduler: scheduler))
    }
}

/// `open` is set by the timer on the scheduler's thread and read by the source's events, which
/// may arrive on another thread; it never goes back to `false`.
private final class SkipDurationSink<Observer: ObserverType>: ElementSink<Observer>, SourceSink {
    typealias Element = Observer.Element

    private let open = Atomic<Bool>(false)

    /// Starts the timer, then subscribes the source (RxSwift's order).
    func run(source: Observable<Element>, duration: RxTimeInterval, scheduler: SchedulerType) -> Disposable {
        let timer = scheduler.scheduleRelative((), dueTime: duration) { _ in
            self.open.store(true, ordering: .releasing)
            return Disposables.create()
        }
        let subscription = source.subscribe(self)
        return Disposables.create(timer, subscription)
    }

    func onNextElement(_ element: Element) {
        if open.load(ordering: .acquiring) && !isDisposed {
            observer._onNextElement(element)
        }
    }
}

private final class SkipDuration<Element>: SourceProducer<
    Element, (duration: RxTimeInterval, scheduler: SchedulerType), Element
>
{
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(SkipDurationSink(observer: observer, cancel: cancel)) {
            $0.run(source: source, duration: parameters.duration, scheduler: parameters.scheduler)
        }
    }
}
