extension ObservableType {
    /// On an error of type `Error`, lets `notificationHandler` decide what happens: the handler
    /// receives the sequence of those errors and returns a trigger sequence. When the trigger
    /// emits an element after a failure, this sequence is subscribed again; when it completes or
    /// fails, the result completes or fails. Errors of other types are emitted unchanged.
    ///
    /// The handler is called once per subscription. As in RxSwift, the trigger's events only
    /// count while a failure is pending: an element emitted while an attempt runs is dropped,
    /// and a completion or error emitted then takes effect at the next failure.
    public func retry<TriggerObservable: ObservableType, Error: Swift.Error>(
        when notificationHandler: @escaping (Observable<Error>) -> TriggerObservable
    ) -> Observable<Element> {
        RetryWhen(asObservable(), { notificationHandler($0).asObservable() })
    }

    /// On error, lets `notificationHandler` decide what happens: the handler receives the
    /// sequence of errors and returns a trigger sequence. When the trigger emits an element after
    /// a failure, this sequence is subscribed again; when it completes or fails, the result
    /// completes or fails.
    public func retry<TriggerObservable: ObservableType>(
        when notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable
    ) -> Observable<Element> {
        RetryWhen(asObservable(), { notificationHandler($0).asObservable() })
    }

    /// Deprecated RxSwift 5 name of `retry(when:)`.
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType, Error: Swift.Error>(
        _ notificationHandler: @escaping (Observable<Error>) -> TriggerObservable
    ) -> Observable<Element> {
        retry(when: notificationHandler)
    }

    /// Deprecated RxSwift 5 name of `retry(when:)`.
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType>(
        _ notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable
    ) -> Observable<Element> {
        retry(when: notificationHandler)
    }
}

/// Per subscription: the handler's trigger sequence is subscribed once, into `triggers`, before
/// the first attempt. Each failure subscribes a ``RetryWhenTriggerObserver`` to `triggers` (a
/// subject, so a trigger that already terminated delivers its terminal event at once) and then
/// sends the error to `failures`, the handler's input. That observer lives as long as the
/// failed attempt, which `attempt` holds until the next attempt replaces it.
///
/// `lock` (recursive: a failure can trigger the next attempt synchronously) serializes the events
/// of the attempts and of the trigger, and is held while forwarding and while starting an
/// attempt. New attempts go through the ``CurrentThreadScheduler``, so a source that fails
/// synchronously is retried in a loop rather than by recursion.
private final class RetryWhenSink<Failure: Swift.Error, Trigger, Observer: ObserverType>: Sink<Observer> {
    typealias Element = Observer.Element

    fileprivate let lock = RxLock(recursive: true)
    private let source: Observable<Element>
    fileprivate let failures = PublishSubject<Failure>()
    fileprivate let triggers = PublishSubject<Trigger>()
    private let attempt = SerialDisposable()

    init(source: Observable<Element>, observer: Observer, cancel: Cancelable) {
        self.source = source
        super.init(observer: observer, cancel: cancel)
    }

    func run(handler: (Observable<Failure>) -> Observable<Trigger>) -> Disposable {
        let triggerSubscription = handler(failures).subscribe(triggers)
        lock.withLock {
            startAttempt()
        }
        return Disposables.create(triggerSubscription, attempt)
    }

    /// Subscribes the source again; disposes the previous attempt. Called with `lock` held.
    private func startAttempt() {
        if isDisposed { return }
        let current = RetryWhenAttempt(parent: self)
        attempt.disposable = current
        current.sourceSubscription.setDisposable(source.subscribe(current))
    }

    /// Called with `lock` held, when the trigger emits an element after a failure.
    fileprivate func scheduleAttempt() {
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            self.lock.withLock {
                self.startAttempt()
            }
            return Disposables.create()
        }
    }
}

/// One subscription to the source.
private final class RetryWhenAttempt<Failure: Swift.Error, Trigger, Observer: ObserverType>: ObserverType,
    Disposable
{
    typealias Element = Observer.Element

    private let parent: RetryWhenSink<Failure, Trigger, Observer>
    let sourceSubscription = SingleAssignmentDisposable()
    // Assigned at the failure of this attempt (at most once: a failure is terminal).
    private let triggerSubscription = SingleAssignmentDisposable()

    init(parent: RetryWhenSink<Failure, Trigger, Observer>) {
        self.parent = parent
    }

    func on(_ event: Event<Element>) {
        parent.lock.withLock {
            switch event {
            case .next:
                parent.forwardOn(event)
            case .completed:
                parent.forwardOn(event)
                parent.dispose()
            case .error(let error):
                guard let failure = error as? Failure else {
                    parent.forwardOn(event)
                    parent.dispose()
                    return
                }
                if parent.isDisposed { return }
                sourceSubscription.dispose()
                triggerSubscription.setDisposable(
                    parent.triggers.subscribe(RetryWhenTriggerObserver(parent: parent)))
                parent.failures.onNext(failure)
            }
        }
    }

    func dispose() {
        sourceSubscription.dispose()
        triggerSubscription.dispose()
    }
}

/// Receives the trigger's events after a failure.
private struct RetryWhenTriggerObserver<Failure: Swift.Error, Trigger, Observer: ObserverType>: ObserverType {
    typealias Element = Trigger

    let parent: RetryWhenSink<Failure, Trigger, Observer>

    func on(_ event: Event<Trigger>) {
        parent.lock.withLock {
            switch event {
            case .next:
                parent.scheduleAttempt()
            case .error(let error):
                parent.forwardOn(.error(error))
                parent.dispose()
            case .completed:
                parent.forwardOn(.completed)
                parent.dispose()
            }
        }
    }
}

private final class RetryWhen<Element, Failure: Swift.Error, Trigger>: SourceProducer<
    Element, (Observable<Failure>) -> Observable<Trigger>, Element
>
{
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(
            RetryWhenSink<Failure, Trigger, Observer>(
                source: source, observer: observer, cancel: cancel)
        ) { $0.run(handler: parameters) }
    }
}
