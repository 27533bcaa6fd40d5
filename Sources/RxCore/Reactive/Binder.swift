/// An observer that applies elements to a target object on a scheduler (the main scheduler by
/// default), as RxCocoa's `Binder` does.
///
/// The target is held weakly: once it is gone, elements are ignored. A binder is meant for
/// sequences that cannot fail: an error is a programming error (it stops a debug build and is
/// printed in release builds). Completion is ignored.
public struct Binder<Value>: ObserverType {
    /// The type of the elements applied.
    public typealias Element = Value

    private let binding: (Event<Value>) -> Void

    /// Creates a binder that calls `binding` with the target and each element, on `scheduler`.
    public init<Target: AnyObject>(
        _ target: Target, scheduler: ImmediateSchedulerType = MainScheduler(),
        binding: @escaping (Target, Value) -> Void
    ) {
        weak let weakTarget = target
        self.binding = { event in
            switch event {
            case .next(let element):
                _ = scheduler.schedule(element) { element in
                    if let target = weakTarget {
                        binding(target, element)
                    }
                    return Disposables.create()
                }
            case .error(let error):
                reportBindingError(error)
            case .completed:
                break
            }
        }
    }

    /// Applies the event to the target.
    public func on(_ event: Event<Value>) {
        binding(event)
    }

    /// The binder as a type-erased observer.
    public func asObserver() -> AnyObserver<Value> {
        AnyObserver(eventHandler: on)
    }
}

/// What happens when a sequence bound with `bind(to:)` fails: RxCocoa stops debug builds, since
/// bindings are meant for sequences that cannot fail, and prints the error in release builds.
func reportBindingError(_ error: Swift.Error) {
    let message = "Binding error: \(error)"
    #if DEBUG
        fatalError(message)
    #else
        print(message)
    #endif
}
