// KeyPathObservation: the values along a key path, re-read after every call of a setter on the
// way, built on methodInvoked (the interception subclass of SPEC 4).
import CInterception
import RxCore

/// What property observation emits, built from `methodInvoked` of each key's setter.
///
/// For a key path `a.b.c` on `object`: the stream of `a`'s values (current, then after each call
/// of `a`'s setter) is switched (`flatMapLatest`) to the stream of `b.c` on each new value, so
/// replacing an intermediate object re-targets the observation. Intermediate objects are held
/// weakly; when one dies its part of the path emits `nil`, as does the death of the target of
/// a weak object property (each object value of one is followed by `nil` when it dies). Every stream along the path starts
/// with the current value, read on subscribe; the whole starts with it when `initial` is set.
///
/// A single key is the fast case (`observe_setter_1_subscriber`): its subscribers attach to the
/// key's ``PropertySink`` subject directly, with no operator in between; longer paths compose
/// the same streams with `flatMapLatest`.
enum KeyPathObservation {
    /// The values at `keyPath` of `object` as `Element`. `strong`: the subscription keeps
    /// `object` alive; otherwise it completes when `object` is deallocated, after emitting `nil`
    /// if `nilAtDeath` (`observeWeakly`, RxCocoa's `finishWithNilWhenDealloc`).
    ///
    /// What emits `nil` (SPEC 17.4): a `nil` object on the way; an object on the way dying (its
    /// holder's property may be weak, or the holder may die with it); the target of a weak
    /// object property dying, at the end of the path as on the way (zeroing is a change). `self`
    /// keys are skipped.
    static func values<Element: PropertyValue>(
        of object: RuntimeObject, keyPath: String, strong: Bool, nilAtDeath: Bool = false,
        initial: Bool = true,
        as type: Element.Type
    ) -> Observable<Element?> {
        let keys = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            .filter { $0 != "self" }
        guard !keys.contains(where: \.isEmpty) else {
            return .error(RuntimeError(IC_ERR_INVALID_ARGUMENT, "key path \"\(keyPath)\" has an empty key"))
        }
        guard !keys.isEmpty else {
            return .error(RuntimeError(IC_ERR_INVALID_ARGUMENT, "key path \"\(keyPath)\" names no key"))
        }
        if keys.count == 1 && !nilAtDeath && !isWeakObjectProperty(keys[0], of: object) {
            // One key: its sink's stream is the whole (it completes when the object dies).
            return changes(of: object, key: keys[0], strong: strong, initial: initial, as: type)
        }
        let path = path(of: object, keys[...], strong: strong, as: type)
        let values = initial ? path : path.skip(1)
        if strong {
            return values
        }
        // Weak: the intermediates' streams end only with them; the whole ends with the object.
        let weakObject = WeakRuntimeObject(object)
        return Observable.deferred {
            guard let object = weakObject.object else { return nilAtDeath ? .just(nil) : .empty() }
            return nilAtDeath
                ? untilDeallocated(values, object) : values.take(until: object.rx.deallocated)
        }
    }

    private static func path<Element: PropertyValue>(
        of object: RuntimeObject, _ keys: ArraySlice<String>, strong: Bool, as type: Element.Type
    ) -> Observable<Element?> {
        let key = keys.first!
        let rest = keys.dropFirst()
        if rest.isEmpty {
            let values = changes(of: object, key: key, strong: strong, initial: true, as: Element.self)
            guard isWeakObjectProperty(key, of: object) else { return values }
            // Zeroing is a change: each object value is followed by nil when it dies.
            return values.flatMapLatest { value -> Observable<Element?> in
                guard let target = value.flatMap({ $0 as Any as? RuntimeObject }) else { return .just(value) }
                return untilDeallocated(once(value), target)
            }
        }
        let children = changes(of: object, key: key, strong: strong, initial: true, as: RuntimeObject?.self)
        return children.flatMapLatest { child -> Observable<Element?> in
            guard let child = child ?? nil else { return .just(nil) }
            // A dead intermediate reads nil from then on, whatever is still alive below it.
            return untilDeallocated(path(of: child, rest, strong: false, as: type), child)
        }
    }

    /// `values` until `object` is deallocated (or `values` completes, which they do only when
    /// an object they observe dies), then `nil` and completed. Holds neither `object` nor its
    /// values.
    private static func untilDeallocated<Element>(_ values: Observable<Element?>, _ object: RuntimeObject)
        -> Observable<Element?>
    {
        values.take(until: object.rx.deallocated).concat(Observable.just(nil))
    }

    /// `value` to the first subscriber, then nothing; the value is not kept after it was sent
    /// (an object value must not be kept alive by the observation).
    private static func once<Element>(_ value: Element?) -> Observable<Element?> {
        let pending = OneShot(value)
        return Observable.create { observer in
            if let value = pending.take() { observer.onNext(value) }
            return Disposables.create()
        }
    }

    /// Whether `key` is a declared weak object property of `object`'s class.
    private static func isWeakObjectProperty(_ key: String, of object: RuntimeObject) -> Bool {
        guard let property = ic_class_get_property(ic_object_get_class(object.pointer), key) else {
            return false
        }
        return ic_property_attributes(property) & IC_PROPERTY_WEAK.rawValue != 0
            && String(cString: ic_property_type(property)) == "@"
    }

    /// `key`'s value on `object` now (with `initial`) and after every call of its setter on it
    /// (read by a ``PropertySink`` during the call). Completes when `object` dies.
    ///
    /// The subscriber is attached to the sink's subject as it is: events go from the setter's
    /// thread through the subject (which serializes them: setters may run on any thread, and a
    /// subscriber may set the key again) straight to it. The current value is sent
    /// synchronously, before attaching (so it cannot meet a change in flight); a change made
    /// between that read and the attachment (the sink counts them) is followed by a second read,
    /// delivered in turn with the changes, so the last value the subscriber sees is never stale.
    static func changes<Value: PropertyValue>(
        of object: RuntimeObject, key: String, strong: Bool, initial: Bool, as type: Value.Type
    ) -> Observable<Value?> {
        if let converted = convertedChanges(of: object, key: key, strong: strong, initial: initial, as: type)
        {
            return converted
        }
        let weakObject = WeakRuntimeObject(object)
        let keeper: RuntimeObject? = strong ? object : nil
        return Observable._subscribingDirectly { attach, send in
            guard let object = weakObject.object else {
                send(.completed)
                return Disposables.create()
            }
            let sink: PropertySink<Value>
            do {
                sink = try propertySink(of: object, key: key, as: type)
            } catch {
                send(.error(error))
                return Disposables.create()
            }
            let events: Observable<Value?>
            if initial {
                let changesBefore = sink.changeCount
                send(.next(sink.reader.read(object.pointer, as: Value.self)))
                // Holds the object only while subscribing (the observable is dropped then).
                let reader = sink.reader
                events = sink.subject._followingEachSubscription {
                    guard sink.changeCount != changesBefore else { return nil }
                    return .some(reader.read(object.pointer, as: Value.self))
                }
            } else {
                events = sink.subject.asObservable()
            }
            let subscription = attach(sink.observable(of: events))
            guard let keeper else { return subscription }
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
        let reader = try PropertyReader(key: key, of: object, as: Value.self)
        let sinkKey = TypedSinkKey(
            selector: selector, phase: IC_OBSERVE_AFTER, types: ObjectIdentifier(PropertySink<Value>.self),
            detail: key)
        let sink: PropertySink<Value> = try InterceptionState.of(object).typedSink(key: sinkKey, for: object)
        {
            _ in PropertySink(object: object, setter: selector, reader: reader)
        }
        // Installed before the current value is read, so that a set made meanwhile is counted
        // (the subscription then attaches to it).
        try sink.register()
        return sink
    }

    /// Refuses a key whose value is not of `encoding` (or of the same values: `l` for `i`).
    private static func checkKey(_ key: String, of object: RuntimeObject, encoding: String)
        throws(RuntimeError)
    {
        guard let actual = object.valueType(forKey: key) else {
            throw RuntimeError.lastCError()
        }
        let expected = TypeEncoding.normalized(encoding)
        guard TypeEncoding.sameValue(swift: expected, method: TypeEncoding.normalized(actual)) else {
            throw RuntimeError(
                IC_ERR_SIGNATURE_MISMATCH,
                "key \"\(key)\" of \(object.runtimeClass.name) has type \(actual), not \(expected)")
        }
    }
}

/// A value handed out once, then forgotten.
private final class OneShot<Value>: @unchecked Sendable {
    // @unchecked: `value` is guarded by `lock`.
    private let lock = Lock()
    private var value: Value?

    init(_ value: Value) { self.value = value }

    func take() -> Value? {
        lock.withLock {
            defer { value = nil }
            return value
        }
    }
}
