// Property observation and binding (SPEC 12.3, 12.4): RxCocoa's rx.observe, rx.observeWeakly and
// a ControlProperty-shaped rx.property for runtime objects.
import CInterception
import RxCore

/// What `rx.observe` emits (RxCocoa's `KeyValueObservingOptions`).
public struct KeyValueObservingOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// The current value, on subscribe.
    public static let initial = KeyValueObservingOptions(rawValue: 1 << 0)
    /// The new value after each change (without it, each change emits `nil`, as Foundation's
    /// change dictionary has no new value then).
    public static let new = KeyValueObservingOptions(rawValue: 1 << 1)
}

extension Reactive where Base: RuntimeObject {
    /// The values of `keyPath` ("title", or "owner.name" through object properties): the
    /// current one on subscribe (`.initial`), then the value after every change made through a
    /// setter on the path, key-value coding included (RxCocoa's `observe`).
    ///
    /// ```swift
    /// label.rx.observe(String.self, "text").subscribe(onNext: { print($0 ?? "nil") })
    /// ```
    ///
    /// - A change is a call of the key's setter (the declared property's, or `setKey:`), seen
    ///   through the same interception as ``methodInvoked(_:)``, so `sentMessage`, hooks and
    ///   observation combine on one object. A value stored without calling the setter (in a
    ///   hand-written method writing storage directly) is not seen.
    /// - Replacing an object along the path re-targets the observation; a `nil` object along
    ///   the path emits `nil`, and so does the death of an object along the path or of the
    ///   target of a weak object property (zeroing is a change), at any depth. `self` keys are
    ///   skipped (`"self.title"` is `"title"`).
    /// - `nil` is also emitted for a `nil` value (a NULL string is `nil`, not `""`), and for a
    ///   value `Element` cannot hold (a `nil` object read as `RuntimeObject`).
    /// - A numeric key can be observed as any numeric type: each value is converted exactly,
    ///   or is `nil` when the type cannot hold it (an `Int32` key as `Int` always converts; a
    ///   `UInt64` key as `UInt32` converts the values below 2^32). An enum with a raw value
    ///   observes directly (the raw value's type converts the same way).
    /// - With `retainSelf` (the default) the subscription keeps the object alive; the stream
    ///   then ends only when disposed.
    /// - Events come on the thread that called the setter, one at a time.
    /// - An unknown key, a key without a setter, or a type that is not the key's is the
    ///   stream's error (``RuntimeError``), on subscribe.
    public func observe<Element: PropertyValue>(
        _ type: Element.Type, _ keyPath: String, options: KeyValueObservingOptions = [.new, .initial],
        retainSelf: Bool = true
    ) -> Observable<Element?> {
        Self.shape(
            KeyPathObservation.values(
                of: base, keyPath: keyPath, strong: retainSelf, initial: options.contains(.initial), as: type),
            options)
    }

    /// As `observe(_:_:options:retainSelf:)`, without keeping the object alive: when the
    /// object is deallocated the stream emits `nil`, then completes (RxCocoa's `observeWeakly`).
    public func observeWeakly<Element: PropertyValue>(
        _ type: Element.Type, _ keyPath: String, options: KeyValueObservingOptions = [.new, .initial]
    ) -> Observable<Element?> {
        Self.shape(
            KeyPathObservation.values(
                of: base, keyPath: keyPath, strong: false, nilAtDeath: true,
                initial: options.contains(.initial),
                as: type),
            options)
    }

    /// `observe(_:_:options:retainSelf:)` for an enum (or any type) with a raw value: the key
    /// is observed as the raw value's type and each value made an `Element` (`nil` when no case
    /// has it).
    ///
    /// ```swift
    /// enum Phase: Int32 { case idle, running }
    /// task.rx.observe(Phase.self, "phase")   // an `i` (or `q`, ...) property
    /// ```
    public func observe<Element: RawRepresentable>(
        _ type: Element.Type, _ keyPath: String, options: KeyValueObservingOptions = [.new, .initial],
        retainSelf: Bool = true
    ) -> Observable<Element?> where Element.RawValue: PropertyValue {
        observe(Element.RawValue.self, keyPath, options: options, retainSelf: retainSelf).map {
            $0.flatMap(Element.init(rawValue:))
        }
    }

    /// `observeWeakly(_:_:options:)` for an enum (or any type) with a raw value.
    public func observeWeakly<Element: RawRepresentable>(
        _ type: Element.Type, _ keyPath: String, options: KeyValueObservingOptions = [.new, .initial]
    ) -> Observable<Element?> where Element.RawValue: PropertyValue {
        observeWeakly(Element.RawValue.self, keyPath, options: options).map {
            $0.flatMap(Element.init(rawValue:))
        }
    }

    /// The property `key` as an observable of its values (the current one first) and an
    /// observer that sets it: `source.bind(to: object.rx.property("title", String.self))`.
    ///
    /// The values are `observeWeakly(_:_:options:)`'s without `nil` reads; setting goes
    /// through key-value coding on the thread that sends the element. The object is held weakly.
    public func property<Value: PropertyValue>(_ key: String, _ type: Value.Type = Value.self)
        -> ObjectProperty<Value>
    {
        ObjectProperty(object: base, key: key)
    }

    /// Without `.new`, every event is `nil` (Foundation's change dictionary has no new value
    /// then, the initial one included). `.initial` was applied by the values themselves.
    private static func shape<Element>(_ values: Observable<Element?>, _ options: KeyValueObservingOptions)
        -> Observable<Element?>
    {
        options.contains(.new) ? values : values.map { _ in nil }
    }
}

/// A property of a runtime object as a sequence of its values and an observer that sets it: the
/// shape of RxCocoa's `ControlProperty`, without its main-thread scheduling (runtime objects
/// are not bound to a thread). Made by `object.rx.property(_:_:)`.
public struct ObjectProperty<Value: PropertyValue>: ObservableType, ObserverType {
    public typealias Element = Value

    private let values: Observable<Value>
    private let weakObject: WeakRuntimeObject
    private let key: String

    init(object: RuntimeObject, key: String) {
        self.values = KeyPathObservation.values(of: object, keyPath: key, strong: false, as: Value.self)
            .compactMap { $0 }
        self.weakObject = WeakRuntimeObject(object)
        self.key = key
    }

    /// Subscribes to the values: the current one, then one per change.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Value {
        values.subscribe(observer)
    }

    /// The values without the current one.
    public var changed: Observable<Value> { values.skip(1) }

    /// The values.
    public func asObservable() -> Observable<Value> { values }

    /// Sets the property to each element (ignored once the object is gone). A failed set (a
    /// key without a setter) and an error event stop debug builds, as a binding error does in
    /// RxCocoa, and are printed in release builds.
    public func on(_ event: Event<Value>) {
        switch event {
        case .next(let value):
            guard let object = weakObject.object else { return }
            do {
                try object.setValue(value, forKey: key)
            } catch {
                reportPropertyBindingFailure("cannot set \(key) of \(object.runtimeClass.name): \(error)")
            }
        case .error(let error):
            reportPropertyBindingFailure("a property binding received an error: \(error)")
        case .completed:
            break
        }
    }
}

private func reportPropertyBindingFailure(_ message: String) {
    #if DEBUG
        fatalError(message)
    #else
        print(message)
    #endif
}
