extension ObservableType {
    /// Emits an element only after `dueTime` has passed on `scheduler` without another element
    /// arriving. On completion, a pending element is emitted before `completed`.
    public func debounce(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Debounce(asObservable(), (dueTime: dueTime, scheduler: scheduler))
    }
}

/// `lock` (recursive, for schedulers that run actions immediately) guards `id` and `pending`
/// and is held while forwarding. Each element gets a new `id`; a timer fires only if no newer
/// element arrived. `timer` holds the pending timer.
private final class DebounceSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType
    private let lock = RxLock(recursive: true)
    private var id: UInt64 = 0
    private var pending: Element?
    private let timer = SerialDisposable()

    init(dueTime: RxTimeInterval, scheduler: SchedulerType, observer: Observer, cancel: Cancelable) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        let subscription = source.subscribe(self)
        return Disposables.create(subscription, timer)
    }

    func on(_ event: Event<Element>) {
        lock.withLock {
            switch event {
            case .next(let element):
                id &+= 1
                pending = element
                let scheduled = SingleAssignmentDisposable()
                timer.disposable = scheduled
                scheduled.setDisposable(scheduler.scheduleRelative(id, dueTime: dueTime, action: propagate))
            case .error:
                pending = nil
                forwardOn(event)
                dispose()
            case .completed:
                if let element = pending {
                    pending = nil
                    forwardOn(.next(element))
                }
                forwardOn(.completed)
                dispose()
            }
        }
    }

    private func propagate(_ scheduledId: UInt64) -> Disposable {
        lock.withLock {
            if scheduledId == id, let element = pending {
                pending = nil
                forwardOn(.next(element))
            }
        }
        return Disposables.create()
    }
}

private final class Debounce<Element>: SourceProducer<
    Element, (dueTime: RxTimeInterval, scheduler: SchedulerType), Element
>
{
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(
            DebounceSink(
                dueTime: parameters.dueTime, scheduler: parameters.scheduler, observer: observer,
                cancel: cancel)
        ) {
            $0.run(source)
        }
    }
}
