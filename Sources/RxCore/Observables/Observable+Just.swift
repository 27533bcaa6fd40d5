extension ObservableType {
    /// A sequence that emits `element` and completes, synchronously on subscription.
    ///
    /// Inlinable so that the caller, which knows the element type, creates the sequence: made in
    /// generic code, each `just` looked up the metadata of its class (a hash-table probe), a
    /// tenth of `flatMap { .just($0) }` per element (perf).
    @inlinable
    public static func just(_ element: Element) -> Observable<Element> {
        Just(element)
    }

    /// A sequence that emits `element` and completes, on `scheduler`.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Observable<Element> {
        ScheduledJust((element, scheduler: scheduler))
    }
}

/// The sequence of `just`: one element, then completion, both delivered synchronously by
/// `subscribe`, whose subscription has nothing to dispose.
///
/// Operators over such a sequence may use its element without subscribing to it (see
/// ``Observable/_asJust()``): `map` makes a ``JustMap``, and `flatMap` and the other operators
/// of `MergeSink` forward the element of a `just` inner sequence and account for its completion
/// in place. Each delivers exactly the events that subscribing would, in the same order, and
/// saves the sink, its disposer and the inner observer that subscribing made per element.
@usableFromInline
final class Just<Element>: Producer<Element> {
    @usableFromInline
    let element: Element

    @usableFromInline
    init(_ element: Element) {
        self.element = element
    }

    @usableFromInline
    override func _asJust() -> Just<Element>? {
        self
    }

    // Emits directly: no sink is needed for two synchronous events.
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        observer._onNextElement(element)
        observer._onCompleted()
        return Disposables.create()
    }
}

private final class ScheduledJustSink<Observer: ObserverType>: Sink<Observer> {
    func run(_ element: Observer.Element, scheduler: ImmediateSchedulerType) -> Disposable {
        scheduler.schedule(element) { element in
            self.forwardOn(.next(element))
            return scheduler.schedule(()) { _ in
                self.forwardOn(.completed)
                self.dispose()
                return Disposables.create()
            }
        }
    }
}

private final class ScheduledJust<Element>: ParameterProducer<
    (element: Element, scheduler: ImmediateSchedulerType), Element
>
{
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(ScheduledJustSink(observer: observer, cancel: cancel)) {
            $0.run(parameters.element, scheduler: parameters.scheduler)
        }
    }
}

/// `map` over a ``Just``: computes `transform(element)` when subscribed and delivers the result
/// and completion, or the error `transform` throws, as a `Map` subscribed to the `Just` would:
/// on the ``CurrentThreadScheduler`` trampoline (started here if none runs, as a ``Producer``
/// starts it), with a subscription that has nothing left to dispose once `subscribe` returns.
/// Why: `Single.just(x).map(f).subscribe(...)` then makes no sink and no sink disposer (two
/// objects and two metadata lookups of five per single, perf `single_map_subscribe`).
@usableFromInline
final class JustMap<Source, Element>: Producer<Element> {
    private let element: Source
    private let transform: (Source) throws -> Element

    @usableFromInline
    init(_ element: Source, _ transform: @escaping (Source) throws -> Element) {
        self.element = element
        self.transform = transform
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        let trampoline = Trampoline.current
        if trampoline.isRunning {
            emit(to: observer)
        } else {
            trampoline.run { emit(to: observer) }
        }
        return Disposables.create()
    }

    private func emit<Observer: ObserverType>(to observer: Observer) where Observer.Element == Element {
        let result: Element
        do {
            result = try transform(element)
        } catch {
            observer.on(.error(error))
            return
        }
        observer._onNextElement(result)
        observer._onCompleted()
    }
}
