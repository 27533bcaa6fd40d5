extension ObservableType {
    /// Splits the elements into windows, each an ``Observable``: a new window opens at the
    /// subscription, then every `timeSpan` on `scheduler` or as soon as the current one holds
    /// `count` elements (which restarts the time span). Termination reaches the current window
    /// and the outer sequence. The source stays subscribed while a window is subscribed.
    public func window(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) -> Observable<
        Observable<Element>
    > {
        precondition(count > 0, "count must be positive")
        return Window(asObservable(), (timeSpan: timeSpan, count: count, scheduler: scheduler))
    }
}

/// `subject` is the current window (see ``WindowingSink``). `refCount` owns the source
/// subscription and the timer; each subscription to a window retains it.
private final class WindowSink<Element, Observer: ObserverType>: WindowingSink<Observer>, ObserverType
where Observer.Element == Observable<Element> {
    private var subject = PublishSubject<Element>()
    private var refCount: RefCountDisposable?

    func run(_ source: Observable<Element>) -> Disposable {
        let subscription = SingleAssignmentDisposable()
        let refCount = RefCountDisposable(disposable: Disposables.create(subscription, timer))
        lock.withLock {
            self.refCount = refCount
            forwardOn(.next(windowObservable(subject)))
            startTimer()
        }
        subscription.setDisposable(source.subscribe(self))
        return refCount
    }

    /// The window of `subject`, which keeps the source subscribed while it is subscribed.
    private func windowObservable(_ subject: PublishSubject<Element>) -> Observable<Element> {
        guard let refCount else { return subject.asObservable() }
        return Observable.create { observer in
            Disposables.create(refCount.retain(), subject.subscribe(observer))
        }
    }

    override func windowClosed() {
        subject.onCompleted()
        subject = PublishSubject()
        forwardOn(.next(windowObservable(subject)))
    }

    func on(_ event: Event<Element>) {
        lock.withLock {
            switch event {
            case .next(let element):
                subject.onNext(element)
                countElement()
            case .error(let error):
                subject.onError(error)
                forwardErrorAndDispose(error)
            case .completed:
                subject.onCompleted()
                forwardCompletedAndDispose()
            }
        }
    }
}

private final class Window<Element>: SourceProducer<Element, WindowParameters, Observable<Element>> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Observable<Element> {
        run(WindowSink<Element, Observer>(parameters, observer: observer, cancel: cancel)) { $0.run(source) }
    }
}
