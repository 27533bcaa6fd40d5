extension ObservableType {
    /// Emits the elements in arrays: an array every `timeSpan` on `scheduler`, or as soon as it
    /// holds `count` elements (which restarts the time span). On completion, emits the current
    /// array (possibly empty), then completes; an error is forwarded at once.
    public func buffer(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) -> Observable<
        [Element]
    > {
        precondition(count > 0, "count must be positive")
        return Buffer(asObservable(), (timeSpan: timeSpan, count: count, scheduler: scheduler))
    }
}

/// `lock` (recursive, for schedulers that run actions immediately) guards `buffer` and
/// `windowId` and is held while forwarding. Each emitted array starts a new window whose timer
/// (in `timer`) emits it unless the count filled it first.
private final class BufferSink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType
where Observer.Element == [Element] {
    private let timeSpan: RxTimeInterval
    private let count: Int
    private let scheduler: SchedulerType
    private let lock = RxLock(recursive: true)
    private var buffer: [Element] = []
    private var windowId = 0
    private let timer = SerialDisposable()

    init(
        timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType, observer: Observer, cancel: Cancelable
    ) {
        self.timeSpan = timeSpan
        self.count = count
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        lock.withLock { startWindow(windowId) }
        return Disposables.create(timer, source.subscribe(self))
    }

    /// Schedules the end of window `id`. Call with `lock` held.
    private func startWindow(_ id: Int) {
        let scheduled = SingleAssignmentDisposable()
        timer.disposable = scheduled
        scheduled.setDisposable(
            scheduler.scheduleRelative(id, dueTime: timeSpan) { id in
                self.lock.withLock {
                    if id == self.windowId { self.emitWindow() }
                }
                return Disposables.create()
            })
    }

    /// Emits the current array and starts the next window. Call with `lock` held.
    private func emitWindow() {
        let elements = buffer
        buffer = []
        windowId += 1
        forwardOn(.next(elements))
        startWindow(windowId)
    }

    func on(_ event: Event<Element>) {
        lock.withLock {
            switch event {
            case .next(let element):
                buffer.append(element)
                if buffer.count == count {
                    emitWindow()
                }
            case .error(let error):
                buffer = []
                forwardErrorAndDispose(error)
            case .completed:
                forwardOn(.next(buffer))
                buffer = []
                forwardCompletedAndDispose()
            }
        }
    }
}

private final class Buffer<Element>: SourceProducer<
    Element, (timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType), [Element]
>
{
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == [Element] {
        run(
            BufferSink<Element, Observer>(
                timeSpan: parameters.timeSpan, count: parameters.count, scheduler: parameters.scheduler,
                observer: observer, cancel: cancel)
        ) { $0.run(source) }
    }
}
