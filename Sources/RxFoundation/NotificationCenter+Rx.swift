import Foundation
import RxCore

#if !canImport(Darwin)
    // On Linux, Foundation's NotificationCenter is not an NSObject, so it does not get `.rx`
    // from RxCore's `NSObject: ReactiveCompatible`.
    extension NotificationCenter: ReactiveCompatible {}
#endif

extension Reactive where Base: NotificationCenter {
    /// The notifications named `name` (all of them for nil), optionally only those posted by
    /// `object`, delivered on the posting thread. Subscribing adds an observer to the center;
    /// disposing removes it.
    public func notification(_ name: Notification.Name?, object: AnyObject? = nil) -> Observable<Notification>
    {
        let center = base
        return Observable.create { observer in
            // The observer is called on whatever thread posts; AnyObserver serializes nothing,
            // but notifications of one center are posted to it one at a time per thread.
            let target = Sendability(observer)
            let token = center.addObserver(forName: name, object: object, queue: nil) { notification in
                target.value.on(.next(notification))
            }
            let registration = Sendability(token)
            return Disposables.create { center.removeObserver(registration.value) }
        }
    }
}

/// Carries a value that is not `Sendable` into a `@Sendable` Foundation callback; each use says
/// why the value is not used concurrently.
struct Sendability<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
