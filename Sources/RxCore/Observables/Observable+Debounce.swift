extension ObservableType {
    /// Emits an element only after `dueTime` has passed on `scheduler` without another element
    /// arriving. On completion, a pending element is emitted before `completed`.
    public func debounce(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Debounce(asObservable(), (dueTime: dueTime, scheduler: scheduler))
    }
}

/// `lock` guards `id` and `pending` (see ``TimedSink``). Each element gets a new `id`; a timer
/// fires only if no newer element arrived.
private final class DebounceSink<Observer: ObserverType>: TimedSink<DueTimeParameters, Observer>,
    ObserverType
{
    typealias Element = Observer.Element

    private var id: UInt64 = 0
    private var pending: Element?

    func on(_ event: Event<Element>) {
        lock.withLock {
            switch event {
            case .next(let element):
                id &+= 1
                pending = element
                timer.replace {
                    parameters.scheduler.scheduleRelative(id, dueTime: parameters.dueTime, action: propagate)
                }
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

private final class Debounce<Element>: SourceProducer<Element, DueTimeParameters, Element> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(timed: DebounceSink(parameters, observer: observer, cancel: cancel))
    }
}
