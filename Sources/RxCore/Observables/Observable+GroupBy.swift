extension ObservableType {
    /// Splits the elements into one sequence per key: emits a ``GroupedObservable`` the first time
    /// a key appears, and sends each element to its key's group. Termination reaches every group;
    /// an error thrown by `keySelector` fails them all. The source stays subscribed while a group
    /// is subscribed, even after the outer subscription is disposed.
    public func groupBy<Key: Hashable>(keySelector: @escaping (Element) throws -> Key)
        -> Observable<GroupedObservable<Key, Element>>
    {
        GroupBy(asObservable(), keySelector)
    }
}

/// The elements of one key of `groupBy` (RxSwift's `GroupedObservable`).
public struct GroupedObservable<Key, Element>: ObservableType {
    /// The key shared by the elements.
    public let key: Key

    private let source: Observable<Element>

    /// Creates a group of `source` for `key`.
    public init(key: Key, source: Observable<Element>) {
        self.key = key
        self.source = source
    }

    /// Subscribes `observer` to the group's elements.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        source.subscribe(observer)
    }

    /// The group as an ``Observable``.
    public func asObservable() -> Observable<Element> {
        source
    }
}

/// The event methods are never called concurrently, so `groups` needs no lock. `refCount` owns
/// the source subscription; each group subscription retains it.
private final class GroupBySink<Key: Hashable, Element, Observer: ObserverType>: Sink<Observer>, SourceSink
where Observer.Element == GroupedObservable<Key, Element> {
    private let keySelector: (Element) throws -> Key
    private var groups: [Key: PublishSubject<Element>] = [:]
    // The groups in the order they were created, the order in which they terminate.
    private var ordered: [PublishSubject<Element>] = []
    private var refCount: RefCountDisposable?

    init(keySelector: @escaping (Element) throws -> Key, observer: Observer, cancel: Cancelable) {
        self.keySelector = keySelector
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        let subscription = SingleAssignmentDisposable()
        let refCount = RefCountDisposable(disposable: subscription)
        self.refCount = refCount
        subscription.setDisposable(source.subscribe(self))
        return refCount
    }

    func onNextElement(_ element: Element) {
        let key: Key
        do {
            key = try keySelector(element)
        } catch {
            onSourceError(error)
            return
        }
        let group: PublishSubject<Element>
        if let existing = groups[key] {
            group = existing
        } else {
            group = PublishSubject()
            groups[key] = group
            ordered.append(group)
            if let refCount {
                let subject = group
                let observable = Observable<Element>.create { observer in
                    Disposables.create(refCount.retain(), subject.subscribe(observer))
                }
                forwardOn(.next(GroupedObservable(key: key, source: observable)))
            }
        }
        group.onNext(element)
    }

    func onSourceError(_ error: Swift.Error) {
        let all = ordered
        groups = [:]
        ordered = []
        for group in all { group.onError(error) }
        forwardErrorAndDispose(error)
    }

    func onSourceCompleted() {
        let all = ordered
        groups = [:]
        ordered = []
        for group in all { group.onCompleted() }
        forwardCompletedAndDispose()
    }
}

private final class GroupBy<Key: Hashable, Element>: SourceProducer<
    Element, (Element) throws -> Key, GroupedObservable<Key, Element>
>
{
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == GroupedObservable<Key, Element> {
        run(GroupBySink(keySelector: parameters, observer: observer, cancel: cancel)) { $0.run(source) }
    }
}
