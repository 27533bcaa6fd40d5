extension ObservableType {
    /// Subscribes the observers to this sequence. Returns the subscription.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable
    where Observer.Element == Element {
        subscribe { event in
            for observer in observers {
                observer.on(event)
            }
        }
    }

    /// Subscribes observers of optional elements to this sequence.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable
    where Observer.Element == Element? {
        map { $0 as Element? }.subscribe { event in
            for observer in observers {
                observer.on(event)
            }
        }
    }

    /// Forwards the elements of this sequence to the relays. The sequence must not fail.
    public func bind(to relays: PublishRelay<Element>...) -> Disposable {
        bind(onNext: { element in
            for relay in relays {
                relay.accept(element)
            }
        })
    }

    /// Forwards the elements of this sequence to relays of optional elements.
    public func bind(to relays: PublishRelay<Element?>...) -> Disposable {
        bind(onNext: { element in
            for relay in relays {
                relay.accept(element)
            }
        })
    }

    /// Forwards the elements of this sequence to the relays. The sequence must not fail.
    public func bind(to relays: BehaviorRelay<Element>...) -> Disposable {
        bind(onNext: { element in
            for relay in relays {
                relay.accept(element)
            }
        })
    }

    /// Forwards the elements of this sequence to relays of optional elements.
    public func bind(to relays: BehaviorRelay<Element?>...) -> Disposable {
        bind(onNext: { element in
            for relay in relays {
                relay.accept(element)
            }
        })
    }

    /// Forwards the elements of this sequence to the relays. The sequence must not fail.
    public func bind(to relays: ReplayRelay<Element>...) -> Disposable {
        bind(onNext: { element in
            for relay in relays {
                relay.accept(element)
            }
        })
    }

    /// Forwards the elements of this sequence to relays of optional elements.
    public func bind(to relays: ReplayRelay<Element?>...) -> Disposable {
        bind(onNext: { element in
            for relay in relays {
                relay.accept(element)
            }
        })
    }

    /// Calls `binder` with this sequence, then what it returns with `curriedArgument`, and
    /// returns the result.
    public func bind<R1, R2>(to binder: (Self) -> (R1) -> R2, curriedArgument: R1) -> R2 {
        binder(self)(curriedArgument)
    }

    /// Calls `binder` with this sequence and returns its result.
    public func bind<Result>(to binder: (Self) -> Result) -> Result {
        binder(self)
    }

    /// Subscribes `onNext` to the elements of this sequence. The sequence must not fail.
    public func bind(onNext: @escaping (Element) -> Void) -> Disposable {
        subscribe(onNext: onNext, onError: { reportBindingError($0) })
    }

    /// Subscribes `onNext` to the elements of this sequence, passing it `object` as its first
    /// argument while `object` is alive; `object` is held weakly, so the binding does not keep it
    /// alive. The sequence must not fail.
    public func bind<Object: AnyObject>(with object: Object, onNext: @escaping (Object, Element) -> Void)
        -> Disposable
    {
        subscribe(
            onNext: { [weak object] element in
                guard let object else { return }
                onNext(object, element)
            },
            onError: { reportBindingError($0) })
    }
}
