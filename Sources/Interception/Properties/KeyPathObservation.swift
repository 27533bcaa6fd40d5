// KeyPathObservation: the values along a key path, re-read after every call of a setter on the
// way, built on methodInvoked (the interception subclass of SPEC 4).
import CInterception
import RxCore

/// What property observation emits, built from `methodInvoked` of each key's setter.
///
/// For a key path `a.b.c` on `object`: the stream of `a`'s values (current, then after each call
/// of `a`'s setter) is switched (`flatMapLatest`) to the stream of `b.c` on each new value, so
/// replacing an intermediate object re-targets the observation. Intermediate objects are held
/// weakly; when one dies its part of the path reads `nil`. Every stream starts with the current
/// value, synchronously on subscribe; the caller drops it when `.initial` was not asked for.
enum KeyPathObservation {
    /// The values at `keyPath` of `object` as `Element`. `strong`: the subscription keeps
    /// `object` alive; otherwise it completes when `object` is deallocated.
    static func values<Element: PropertyValue>(
        of object: RuntimeObject, keyPath: String, strong: Bool, as type: Element.Type
    ) -> Observable<Element?> {
        let keys = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !keys.contains(where: \.isEmpty) else {
            return .error(RuntimeError(IC_ERR_INVALID_ARGUMENT, "key path \"\(keyPath)\" has an empty key"))
        }
        let values = path(of: object, keys[...], strong: strong, as: type)
        if strong {
            return values
        }
        // Weak: the intermediates' streams end only with them; the whole ends with the object.
        let weakObject = WeakRuntimeObject(object)
        return Observable.deferred {
            guard let object = weakObject.object else { return .empty() }
            return values.take(until: object.rx.deallocated)
        }
    }

    private static func path<Element: PropertyValue>(
        of object: RuntimeObject, _ keys: ArraySlice<String>, strong: Bool, as type: Element.Type
    ) -> Observable<Element?> {
        let key = keys.first!
        let rest = keys.dropFirst()
        if rest.isEmpty {
            return changes(of: object, key: key, strong: strong, encoding: Element.propertyEncoding) {
                try? $0.value(forKey: key, as: Element.self)
            }
        }
        let children = changes(of: object, key: key, strong: strong, encoding: "@") {
            (try? $0.value(forKey: key, as: RuntimeObject?.self)) ?? nil
        }
        return children.flatMapLatest { child -> Observable<Element?> in
            guard let child else { return .just(nil) }
            // A dead intermediate reads nil from then on (its weak parent property is zeroed).
            return path(of: child, rest, strong: false, as: type).concat(Observable.just(nil))
        }
    }

    /// The value `read` gives for `object` now and after every call of `key`'s setter on it,
    /// serialized (setters may run on any thread). Completes when `object` dies.
    private static func changes<Value>(
        of object: RuntimeObject, key: String, strong: Bool, encoding: String,
        read: @escaping (RuntimeObject) -> Value
    ) -> Observable<Value> {
        let weakObject = WeakRuntimeObject(object)
        let keeper: RuntimeObject? = strong ? object : nil
        return Observable.create { observer in
            guard let object = weakObject.object else {
                observer.onCompleted()
                return Disposables.create()
            }
            do throws(RuntimeError) {
                try checkKey(key, of: object, encoding: encoding)
            } catch {
                observer.onError(error)
                return Disposables.create()
            }
            guard let setter = ic_object_setter_for_key(object.pointer, key) else {
                observer.onError(RuntimeError.lastCError())
                return Disposables.create()
            }
            let lock = Lock(recursive: true)
            let subscription = object.rx.methodInvoked(Selector(pointer: setter)).subscribe { event in
                lock.withLock {
                    switch event {
                    case .next:
                        // The setter just returned, so the object is alive unless this is its
                        // dealloc calling the setter (then there is nothing left to report).
                        if let object = weakObject.object {
                            observer.onNext(read(object))
                        }
                    case .error(let error):
                        observer.onError(error)
                    case .completed:
                        observer.onCompleted()
                    }
                }
            }
            lock.withLock { observer.onNext(read(object)) }
            return Disposables.create {
                subscription.dispose()
                withExtendedLifetime(keeper) {}
            }
        }
    }

    /// Refuses a key whose value is not of `encoding`.
    private static func checkKey(_ key: String, of object: RuntimeObject, encoding: String)
        throws(RuntimeError)
    {
        guard let actual = object.valueType(forKey: key) else {
            throw RuntimeError.lastCError()
        }
        let expected = TypeEncoding.normalized(encoding)
        guard TypeEncoding.normalized(actual) == expected else {
            throw RuntimeError(
                IC_ERR_SIGNATURE_MISMATCH,
                "key \"\(key)\" of \(object.runtimeClass.name) has type \(actual), not \(expected)")
        }
    }
}
