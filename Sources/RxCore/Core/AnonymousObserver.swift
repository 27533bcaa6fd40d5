import Synchronization

/// An observer that calls a closure, and that keeps the grammar: nothing is delivered after the
/// first terminal event.
final class AnonymousObserver<Element>: ObserverType {
    typealias EventHandler = (Event<Element>) -> Void

    private let eventHandler: EventHandler
    // Set by the first terminal event; events are never delivered concurrently to one observer,
    // so the flag only has to be atomic for the final read after termination.
    private let stopped = Atomic<Bool>(false)

    #if TRACE_RESOURCES
        private let resourceCount = ResourceCount()
    #endif

    init(_ eventHandler: @escaping EventHandler) {
        self.eventHandler = eventHandler
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if !stopped.load(ordering: .relaxed) {
                eventHandler(event)
            }
        case .error, .completed:
            if !stopped.exchange(true, ordering: .relaxed) {
                eventHandler(event)
            }
        }
    }
}
