extension ObservableType {
    /// Creates a resource with `resourceFactory` for each subscription, subscribes to the
    /// sequence `observableFactory` makes from it, and disposes the resource with the
    /// subscription. An error thrown by a factory is emitted.
    public static func using<Resource: Disposable>(
        _ resourceFactory: @escaping () throws -> Resource,
        observableFactory: @escaping (Resource) throws -> Observable<Element>
    ) -> Observable<Element> {
        Using((resourceFactory: resourceFactory, observableFactory: observableFactory))
    }
}

private final class UsingSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    func run<Resource: Disposable>(
        resourceFactory: () throws -> Resource, observableFactory: (Resource) throws -> Observable<Element>
    ) -> Disposable {
        var resource: Disposable = Disposables.create()
        do {
            let created = try resourceFactory()
            resource = created
            let source = try observableFactory(created)
            return Disposables.create(source.subscribe(self), resource)
        } catch {
            forwardErrorAndDispose(error)
            return resource
        }
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            forwardOn(event)
        case .error(let error):
            forwardErrorAndDispose(error)
        case .completed:
            forwardCompletedAndDispose()
        }
    }
}

private final class Using<Resource: Disposable, Element>: ParameterProducer<
    (resourceFactory: () throws -> Resource, observableFactory: (Resource) throws -> Observable<Element>),
    Element
>
{
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(UsingSink(observer: observer, cancel: cancel)) {
            $0.run(
                resourceFactory: parameters.resourceFactory, observableFactory: parameters.observableFactory)
        }
    }
}
