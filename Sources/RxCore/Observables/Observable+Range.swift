/// The integer types accepted by `range`, `interval` and `timer`, as RxSwift names them.
public typealias RxAbstractInteger = FixedWidthInteger

extension ObservableType where Element: RxAbstractInteger {
    /// A sequence that emits `count` consecutive integers starting at `start`, then completes.
    /// Each element is emitted by its own action on `scheduler` (see `of`).
    public static func range(
        start: Element, count: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance
    ) -> Observable<Element> {
        precondition(count >= 0, "count can't be negative")
        precondition(start &+ (count - 1) >= start || count == 0, "overflow of count")
        return RangeProducer((start: start, count: count, scheduler: scheduler))
    }
}

private final class RangeSink<Observer: ObserverType>: Sink<Observer>
where Observer.Element: RxAbstractInteger {
    typealias Element = Observer.Element

    func run(start: Element, count: Element, scheduler: ImmediateSchedulerType) -> Disposable {
        scheduler.scheduleRecursive(0 as Element) { index, recurse in
            if index < count {
                self.forwardOn(.next(start + index))
                recurse(index + 1)
            } else {
                self.forwardOn(.completed)
                self.dispose()
            }
        }
    }
}

private final class RangeProducer<Element: RxAbstractInteger>: ParameterProducer<
    (start: Element, count: Element, scheduler: ImmediateSchedulerType), Element
>
{
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(RangeSink(observer: observer, cancel: cancel)) {
            $0.run(start: parameters.start, count: parameters.count, scheduler: parameters.scheduler)
        }
    }
}
