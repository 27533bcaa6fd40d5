// The closures of the `subscribe(with:…)` family: each receives the object first, held weakly,
// and does nothing once the object is gone (RxSwift's `[weak object]` / `guard let` pattern).

/// `callback`, called with `object` and the argument while `object` is alive.
func weaklyCalling<Object: AnyObject, Argument>(
    _ object: Object, _ callback: ((Object, Argument) -> Void)?
) -> (Argument) -> Void {
    { [weak object] argument in
        guard let object else { return }
        callback?(object, argument)
    }
}

/// `callback`, called with `object` while it is alive.
func weaklyCalling<Object: AnyObject>(_ object: Object, _ callback: ((Object) -> Void)?) -> () -> Void {
    { [weak object] in
        guard let object else { return }
        callback?(object)
    }
}
