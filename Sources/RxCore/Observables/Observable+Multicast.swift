import Synchronization

extension ObservableType {
    /// A connectable sequence that multicasts this sequence through `subject` once connected.
    public func multicast<Subject: SubjectType>(_ subject: Subject) -> ConnectableObservable<Subject.Element>
    where Subject.Observer.Element == Element {
        Multicast(source: asObservable(), makeSubject: { subject })
    }

    /// A connectable sequence that multicasts this sequence through a subject made by
    /// `makeSubject`: once at the first use, and again after a connection has terminated.
    public func multicast<Subject: SubjectType>(makeSubject: @escaping () -> Subject)
        -> ConnectableObservable<Subject.Element>
    where Subject.Observer.Element == Element {
        Multicast(source: asObservable(), makeSubject: makeSubject)
    }

    /// For each subscription, multicasts this sequence through a new subject from
    /// `subjectSelector` to the sequence `selector` builds from it, and connects.
    public func multicast<Subject: SubjectType, Result>(
        _ subjectSelector: @escaping () throws -> Subject,
        selector: @escaping (Observable<Subject.Element>) throws -> Observable<Result>
    ) -> Observable<Result> where Subject.Observer.Element == Element {
        let source = asObservable()
        return Observable.create { observer in
            do {
                let connectable = source.multicast(try subjectSelector())
                let subscription = try selector(connectable.asObservable()).subscribe(observer)
                return Disposables.create(subscription, connectable.connect())
            } catch {
                observer.onError(error)
                return Disposables.create()
            }
        }
    }

    /// A connectable sequence that shares this sequence through a ``PublishSubject``.
    public func publish() -> ConnectableObservable<Element> {
        multicast { PublishSubject<Element>() }
    }

    /// A connectable sequence that shares this sequence through a ``ReplaySubject`` of
    /// `bufferSize` elements.
    public func replay(_ bufferSize: Int) -> ConnectableObservable<Element> {
        multicast { ReplaySubject<Element>.create(bufferSize: bufferSize) }
    }

    /// A connectable sequence that shares this sequence through an unbounded ``ReplaySubject``.
    public func replayAll() -> ConnectableObservable<Element> {
        multicast { ReplaySubject<Element>.createUnbounded() }
    }
}

/// One connection of a ``Multicast``: forwards the source's events to the subject; a terminal
/// event, or disposal, ends the connection, and the next `connect()` makes a new subject.
private final class MulticastConnection<Subject: SubjectType>: ObserverType, Disposable {
    typealias Element = Subject.Observer.Element

    private let subjectObserver: Subject.Observer
    // Weak: the connectable owns its connection, not the other way round.
    private weak var parent: Multicast<Subject>?
    let subscription = SingleAssignmentDisposable()
    private let disposed = Atomic<Bool>(false)

    init(parent: Multicast<Subject>, subjectObserver: Subject.Observer) {
        self.parent = parent
        self.subjectObserver = subjectObserver
    }

    func on(_ event: Event<Element>) {
        if disposed.load(ordering: .acquiring) { return }
        if event.isStopEvent {
            dispose()
        }
        subjectObserver.on(event)
    }

    func dispose() {
        if disposed.exchange(true, ordering: .acquiringAndReleasing) { return }
        parent?.disconnect(self)
        subscription.dispose()
    }
}

/// `lock` (recursive: a subscriber may connect or subscribe while the source emits) guards
/// `subject` and `connection`.
private final class Multicast<Subject: SubjectType>: ConnectableObservable<Subject.Element> {
    private let source: Observable<Subject.Observer.Element>
    private let makeSubject: () -> Subject
    private let lock = RxLock(recursive: true)
    private var subject: Subject?
    private var connection: MulticastConnection<Subject>?

    init(source: Observable<Subject.Observer.Element>, makeSubject: @escaping () -> Subject) {
        self.source = source
        self.makeSubject = makeSubject
    }

    /// The current subject, made on first use. Call with `lock` held.
    private var currentSubject: Subject {
        if let subject { return subject }
        let subject = makeSubject()
        self.subject = subject
        return subject
    }

    override func connect() -> Disposable {
        lock.withLock {
            if let connection { return connection }
            let connection = MulticastConnection(parent: self, subjectObserver: currentSubject.asObserver())
            self.connection = connection
            connection.subscription.setDisposable(source.subscribe(connection))
            return connection
        }
    }

    /// Ends `connection` if it is the current one; the next use makes a new subject.
    func disconnect(_ connection: MulticastConnection<Subject>) {
        lock.withLock {
            guard self.connection === connection else { return }
            self.connection = nil
            subject = nil
        }
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Subject.Element {
        lock.withLock { currentSubject }.subscribe(observer)
    }
}
