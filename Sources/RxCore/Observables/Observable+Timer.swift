extension ObservableType where Element: RxAbstractInteger {
    /// A sequence that emits 0, 1, 2, … every `period` on `scheduler`, the first after one period.
    public static func interval(_ period: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        TimerProducer((dueTime: period, period: period, scheduler: scheduler))
    }

    /// A sequence that emits 0 after `dueTime` on `scheduler`; then, if `period` is given, 1, 2, …
    /// every `period`, otherwise it completes.
    public static func timer(
        _ dueTime: RxTimeInterval, period: RxTimeInterval? = nil, scheduler: SchedulerType
    )
        -> Observable<Element>
    {
        TimerProducer((dueTime: dueTime, period: period, scheduler: scheduler))
    }
}

private final class TimerSink<Observer: ObserverType>: Sink<Observer>
where Observer.Element: RxAbstractInteger {
    typealias Element = Observer.Element

    func run(dueTime: RxTimeInterval, period: RxTimeInterval?, scheduler: SchedulerType) -> Disposable {
        guard let period else {
            return scheduler.scheduleRelative((), dueTime: dueTime) { _ in
                self.forwardOn(.next(0))
                self.forwardOn(.completed)
                self.dispose()
                return Disposables.create()
            }
        }
        return scheduler.schedulePeriodic(0 as Element, startAfter: dueTime, period: period) { state in
            self.forwardOn(.next(state))
            return state &+ 1
        }
    }
}

private final class TimerProducer<Element: RxAbstractInteger>: ParameterProducer<
    (dueTime: RxTimeInterval, period: RxTimeInterval?, scheduler: SchedulerType), Element
>
{
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(TimerSink(observer: observer, cancel: cancel)) {
            $0.run(dueTime: parameters.dueTime, period: parameters.period, scheduler: parameters.scheduler)
        }
    }
}
