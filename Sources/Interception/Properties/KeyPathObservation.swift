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
            return changes(of: object, key: key, strong: strong, as: Element.self)
        }
        let children = changes(of: object, key: key, strong: strong, as: RuntimeObject?.self)
        return children.flatMapLatest { child -> Observable<Element?> in
            guard let child = child ?? nil else { return .just(nil) }
            // A dead intermediate reads nil from then on (its weak parent property is zeroed).
            return path(of: child, rest, strong: false, as: type).concat(Observable.just(nil))
        }
    }

    /// `key`'s value on `object` now and after every call of its setter on it (read by a
    /// ``PropertySink`` during the call), serialized: setters may run on any thread, and a
    /// subscriber may set the key again. Completes when `object` dies.
    private static func changes<Value: PropertyValue>(
        of object: RuntimeObject, key: String, strong: Bool, as type: Value.Type
    ) -> Observable<Value?> {
        let weakObject = WeakRuntimeObject(object)
        let keeper: RuntimeObject? = strong ? object : nil
        return Observable.create { observer in
            guard let object = weakObject.object else {
                observer.onCompleted()
                return Disposables.create()
            }
            let sink: PropertySink<Value>
            do {
                sink = try propertySink(of: object, key: key, as: type)
            } catch {
                observer.onError(error)
                return Disposables.create()
            }
            let lock = Lock(recursive: true)
            let subscription = sink.observable(of: sink.subject.asObservable()).subscribe { event in
                lock.withLock { observer.on(event) }
            }
            lock.withLock { observer.onNext(sink.reader.read(object.pointer)) }
            return Disposables.create {
                subscription.dispose()
                withExtendedLifetime(keeper) {}
            }
        }
    }

    /// The object's sink for `key` read as `Value`, after checking the key.
    private static func propertySink<Value: PropertyValue>(
        of object: RuntimeObject, key: String, as type: Value.Type
    ) throws -> PropertySink<Value> {
        try checkKey(key, of: object, encoding: Value.propertyEncoding)
        guard let setter = ic_object_setter_for_key(object.pointer, key) else {
            throw RuntimeError.lastCError()
        }
        let selector = Selector(pointer: setter)
        let reader = try PropertyReader<Value>(key: key, of: object)
        let sinkKey = TypedSinkKey(
            selector: selector, phase: IC_OBSERVE_AFTER, types: ObjectIdentifier(PropertySink<Value>.self),
            detail: key)
        return try InterceptionState.of(object).typedSink(key: sinkKey, for: object) { _ in
            PropertySink(object: object, setter: selector, reader: reader)
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
