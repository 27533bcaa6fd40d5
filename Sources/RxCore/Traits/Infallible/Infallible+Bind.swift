// `bind` of infallible sequences (RxCocoa's and RxRelay's `Infallible+Bind`): an infallible
// sequence cannot fail, so binding needs no error handling.

extension InfallibleType {
    /// Sends the elements and the completion to `observers`.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable
    where Observer.Element == Element {
        asObservable().subscribe { event in
            for observer in observers { observer.on(event) }
        }
    }

    /// Sends the elements, as optionals, and the completion to `observers`.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable
    where Observer.Element == Element? {
        asObservable().map { $0 as Element? }.subscribe { event in
            for observer in observers { observer.on(event) }
        }
    }

    /// Calls `binder` with this sequence and returns its result.
    public func bind<Result>(to binder: (Self) -> Result) -> Result {
        binder(self)
    }

    /// Calls `binder` with this sequence, then what it returns with `curriedArgument`, and
    /// returns the result.
    public func bind<R1, R2>(to binder: (Self) -> (R1) -> R2, curriedArgument: R1) -> R2 {
        binder(self)(curriedArgument)
    }

    /// Subscribes `onNext` to the elements.
    public func bind(onNext: @escaping (Element) -> Void) -> Disposable {
        asObservable().subscribe(onNext: onNext)
    }

    /// Subscribes `onNext` to the elements, passing it `object` first while `object` is alive
    /// (held weakly).
    public func bind<Object: AnyObject>(with object: Object, onNext: @escaping (Object, Element) -> Void)
        -> Disposable
    {
        bind(onNext: { [weak object] element in
            guard let object else { return }
            onNext(object, element)
        })
    }

    /// Sends the elements to `relays`.
    public func bind(to relays: PublishRelay<Element>...) -> Disposable {
        bind(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Sends the elements, as optionals, to `relays`.
    public func bind(to relays: PublishRelay<Element?>...) -> Disposable {
        bind(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Sets the elements as the value of `relays`.
    public func bind(to relays: BehaviorRelay<Element>...) -> Disposable {
        bind(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Sets the elements, as optionals, as the value of `relays`.
    public func bind(to relays: BehaviorRelay<Element?>...) -> Disposable {
        bind(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Sends the elements to `relays`.
    public func bind(to relays: ReplayRelay<Element>...) -> Disposable {
        bind(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Sends the elements, as optionals, to `relays`.
    public func bind(to relays: ReplayRelay<Element?>...) -> Disposable {
        bind(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }
}

extension PublishRelay {
    /// The relay as an infallible sequence.
    public func asInfallible() -> Infallible<Element> {
        Infallible(asObservable())
    }
}

extension BehaviorRelay {
    /// The relay as an infallible sequence (it replays its value first).
    public func asInfallible() -> Infallible<Element> {
        Infallible(asObservable())
    }
}

extension ReplayRelay {
    /// The relay as an infallible sequence (it replays its buffer first).
    public func asInfallible() -> Infallible<Element> {
        Infallible(asObservable())
    }
}
