import Synchronization

/// An observer that calls a closure, and that keeps the grammar: nothing is delivered after the
/// first terminal event.
final class AnonymousObserver<Element>: ObserverType {
    typealias EventHandler = (Event<Element>) -> Void

    private let eventHandler: EventHandler
    // Set by the first terminal event; events are never delivered concurrently to one observer,
    // so the flag only has to be atomic for the final read after termination.
    private let stopped = Atomic<Bool>(false)

    init(_ eventHandler: @escaping EventHandler) {
        #if TRACE_RESOURCES
            _ = Resources.incrementTotal()
        #endif
        self.eventHandler = eventHandler
    }

    deinit {
        #if TRACE_RESOURCES
            _ = Resources.decrementTotal()
        #endif
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
