import Synchronization

extension ObservableType {
    /// Creates a sequence from a subscribe function.
    ///
    /// `subscribe` runs once per subscription with an observer for that subscription, and returns
    /// the disposable that tears down what it set up. The observer keeps the grammar (events after
    /// a terminal event are dropped) and serializes calls made from several threads, so the
    /// function may send from wherever its work completes.
    ///
    /// ```swift
    /// let numbers = Observable<Int>.create { observer in
    ///     observer.onNext(1)
    ///     observer.onCompleted()
    ///     return Disposables.create()
    /// }
    /// ```
    public static func create(_ subscribe: @escaping (AnyObserver<Element>) -> Disposable) -> Observable<
        Element
    > {
        AnonymousObservable(subscribe)
    }
}

private final class AnonymousObservableSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    // Serializes events sent from several threads; recursive so that an event sent re-entrantly
    // from the observer is delivered (nested) instead of deadlocking, as in RxSwift.
    private let lock = RxLock(recursive: true)
    // Set by the first terminal event, under `lock`.
    private var stopped = false

    func on(_ event: Event<Element>) {
        if case .next(let element) = event {
            onNext(element)
            return
        }
        lock.lock()
        defer { lock.unlock() }
        if stopped { return }
        stopped = true
        forwardOn(event)
        dispose()
    }

    private func onNext(_ element: Element) {
        lock.lock()
        defer { lock.unlock() }
        if stopped || isDisposed { return }
        observer._onNextElement(element)
    }

    func run(_ parent: AnonymousObservable<Element>) -> Disposable {
        parent.subscribeHandler(AnyObserver(self))
    }
}

private final class AnonymousObservable<Element>: Producer<Element> {
    typealias SubscribeHandler = (AnyObserver<Element>) -> Disposable

    let subscribeHandler: SubscribeHandler

    init(_ subscribeHandler: @escaping SubscribeHandler) {
        self.subscribeHandler = subscribeHandler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(AnonymousObservableSink(observer: observer, cancel: cancel)) { $0.run(self) }
    }
}
