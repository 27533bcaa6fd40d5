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

/// `lock` (recursive, for schedulers that run actions immediately) guards the current window,
/// its element count and `windowId`, and is held while forwarding. `refCount` owns the source
/// subscription and the timer; each subscription to a window retains it.
private final class WindowSink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType
where Observer.Element == Observable<Element> {
    private let timeSpan: RxTimeInterval
    private let count: Int
    private let scheduler: SchedulerType
    private let lock = RxLock(recursive: true)
    private var subject = PublishSubject<Element>()
    private var elementCount = 0
    private var windowId = 0
    private let timer = SerialDisposable()
    private var refCount: RefCountDisposable?

    init(
        timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType, observer: Observer, cancel: Cancelable
    ) {
        self.timeSpan = timeSpan
        self.count = count
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        let subscription = SingleAssignmentDisposable()
        let refCount = RefCountDisposable(disposable: Disposables.create(subscription, timer))
        lock.withLock {
            self.refCount = refCount
            forwardOn(.next(windowObservable(subject)))
            startTimer(windowId)
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

    /// Schedules the end of window `id`. Call with `lock` held.
    private func startTimer(_ id: Int) {
        let scheduled = SingleAssignmentDisposable()
        timer.disposable = scheduled
        scheduled.setDisposable(
            scheduler.scheduleRelative(id, dueTime: timeSpan) { id in
                self.lock.withLock {
                    if id == self.windowId { self.openNextWindow() }
                }
                return Disposables.create()
            })
    }

    /// Completes the current window and opens the next. Call with `lock` held.
    private func openNextWindow() {
        subject.onCompleted()
        subject = PublishSubject()
        elementCount = 0
        windowId += 1
        forwardOn(.next(windowObservable(subject)))
        startTimer(windowId)
    }

    func on(_ event: Event<Element>) {
        lock.withLock {
            switch event {
            case .next(let element):
                subject.onNext(element)
                elementCount += 1
                if elementCount == count {
                    openNextWindow()
                }
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

private final class Window<Element>: SourceProducer<
    Element, (timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType), Observable<Element>
>
{
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Observable<Element> {
        run(
            WindowSink<Element, Observer>(
                timeSpan: parameters.timeSpan, count: parameters.count, scheduler: parameters.scheduler,
                observer: observer, cancel: cancel)
        ) { $0.run(source) }
    }
}
