// The rx bindings: RxCocoa's NSObject+Rx for runtime objects.
import CInterception
import RxCore

extension RuntimeObject: ReactiveCompatible {}

extension Reactive where Base: RuntimeObject {
    /// The arguments of every call of `selector` on this object, sent just before the method
    /// runs (RxCocoa's `sentMessage`).
    ///
    /// - Arguments exclude the receiver and `_cmd`, boxed by encoding: integers and floats as the
    ///   matching Swift type (`q`/`Q` as `Int`/`UInt`), `B` as `Bool`, `@` as `RuntimeObject?`,
    ///   `#` as `RuntimeClass?`, `:` as `Selector?`, `*` as `UnsafePointer<CChar>?` (read it as a string only if you know it is one), pointers as
    ///   `UnsafeRawPointer?`, structs and arrays as ``RuntimeStructValue``.
    /// - Hot: no replay. Every request for the same selector shares one subject.
    /// - Events are emitted on the thread that called the method.
    /// - Requesting the observable changes nothing: the first subscription installs the
    ///   interception (the object moves into its interception subclass, `respondsToSelector:`
    ///   answers for it) and the last disposal removes it. A refusal is the `.error`
    ///   (``InterceptionError``) each subscription receives.
    /// - Neither the observable nor its subscriptions keep the object alive; the stream
    ///   completes when the object is deallocated.
    /// - `sentMessage(dealloc)` is ``deallocating``, mapped to `[]`.
    public func sentMessage(_ selector: Selector) -> Observable<[Any]> {
        if selector == KnownSelectors.shared.dealloc {
            return deallocating.map { _ in [] }
        }
        return arguments(of: selector, phase: IC_OBSERVE_BEFORE)
    }

    /// The arguments of every call of `selector` on this object, sent just after the method
    /// returned (RxCocoa's `methodInvoked`). Same semantics as ``sentMessage(_:)``;
    /// `methodInvoked(dealloc)` is ``deallocated``, mapped to `[]` (no method swapping needed).
    public func methodInvoked(_ selector: Selector) -> Observable<[Any]> {
        if selector == KnownSelectors.shared.dealloc {
            return deallocated.map { _ in [] }
        }
        return arguments(of: selector, phase: IC_OBSERVE_AFTER)
    }

    /// `()` once, when the object's dealloc begins, while it is still whole; then completed
    /// (with its other streams). Replayed to late subscribers. Emitted on the thread that
    /// released the object's last reference.
    public var deallocating: Observable<Void> {
        dealloc(before: true)
    }

    /// `()` once, after the object's memory was freed, then completed (requested while the
    /// object is deallocating: once its `dealloc` methods ran). Replayed to late subscribers.
    /// Needs no method swapping. Emitted on the thread that released the object's last reference.
    public var deallocated: Observable<Void> {
        dealloc(before: false)
    }

    /// The arguments of every call of `selector`, as the Swift types `T...`, sent before the
    /// method runs. The method's encoding is checked once against the types (a mismatch is the
    /// observable's `.error`, ``InterceptionError/typeMismatch(className:selector:methodEncoding:swiftEncoding:isClassMethod:)``);
    /// calls then skip `[Any]` boxing.
    ///
    ///     object.rx.sentMessage("moveTo:y:", as: (Int32, Double).self)
    public func sentMessage<each T: RuntimeValue>(_ selector: Selector, as types: (repeat each T).Type)
        -> Observable<(repeat each T)>
    {
        typedArguments(of: selector, phase: IC_OBSERVE_BEFORE, as: types) { subject in
            { call in TypedArgumentsSink.sendGeneric(call, to: subject) }
        }
    }

    /// As the typed `sentMessage(_:as:)`, sent after the method returned.
    public func methodInvoked<each T: RuntimeValue>(_ selector: Selector, as types: (repeat each T).Type)
        -> Observable<(repeat each T)>
    {
        typedArguments(of: selector, phase: IC_OBSERVE_AFTER, as: types) { subject in
            { call in TypedArgumentsSink.sendGeneric(call, to: subject) }
        }
    }

    /// The single argument of every call of `selector`, as the Swift type `T`, sent before the
    /// method runs: the typed `sentMessage(_:as:)` for a method of one argument. (A separate overload so
    /// that the element type is `T` itself, and closures over it infer as written:
    /// `sentMessage("f:", as: Int64.self).subscribe(onNext: { n in total += Int(n) })`.)
    ///
    /// Inlinable, so that the argument is read and sent by code specialized for `T` in the
    /// caller's module.
    @inlinable
    public func sentMessage<T: RuntimeValue>(_ selector: Selector, as type: T.Type) -> Observable<T> {
        typedArguments(of: selector, phase: IC_OBSERVE_BEFORE, as: type) { (subject: PublishSubject<T>) in
            { call in subject.onNext(MethodFrame.argument(call, at: 2, as: T.self)) }
        }
    }

    /// As the single-type `sentMessage(_:as:)`, sent after the method returned.
    @inlinable
    public func methodInvoked<T: RuntimeValue>(_ selector: Selector, as type: T.Type) -> Observable<T> {
        typedArguments(of: selector, phase: IC_OBSERVE_AFTER, as: type) { (subject: PublishSubject<T>) in
            { call in subject.onNext(MethodFrame.argument(call, at: 2, as: T.self)) }
        }
    }

    /// The arguments and the return value of every call of `selector`, sent just after the
    /// method returned: `methodInvoked(_:)` plus the result (boxed the same way; `()` for a method
    /// that returns nothing), which RxCocoa's `methodInvoked` does not give. Same semantics as
    /// ``sentMessage(_:)`` otherwise: hot, shared per object and selector, installed by the
    /// first subscription, a refusal is each subscription's error, completes when the object dies.
    public func methodReturned(_ selector: Selector) -> Observable<(arguments: [Any], result: Any)> {
        let key = TypedSinkKey(
            selector: selector, phase: IC_OBSERVE_AFTER, types: ObjectIdentifier(ResultSink.self))
        let className = base.runtimeClass.name
        do {
            let state = try InterceptionState.of(base)
            let object = base.pointer
            let sink = try state.typedSink(key: key, for: base) { signature throws(InterceptionError) in
                ResultSink(object: object, selector: selector, className: className, signature: signature)
            }
            return sink.observable(of: sink.subject.asObservable())
        } catch let error as InterceptionError {
            return .error(error)
        } catch {
            return .error(runtimeFailure(error, selector))
        }
    }

    // ---- implementation -------------------------------------------------------------------

    private func arguments(of selector: Selector, phase: ic_observer_phase) -> Observable<[Any]> {
        do {
            let state = try InterceptionState.of(base)
            let sink = try state.argumentsSink(for: base, selector: selector, phase: phase)
            return sink.observable(of: sink.subject.asObservable())
        } catch let error as InterceptionError {
            return .error(error)
        } catch {
            return .error(runtimeFailure(error, selector))
        }
    }

    /// The typed observable of `selector`'s calls, whose arguments the closure `makeDelivery`
    /// makes for the sink's subject loads as `T...` and sends to that subject.
    @usableFromInline
    func typedArguments<each T: RuntimeValue>(
        of selector: Selector, phase: ic_observer_phase, as types: (repeat each T).Type,
        makeDelivery: (PublishSubject<(repeat each T)>) -> (OpaquePointer) -> Void
    ) -> Observable<(repeat each T)> {
        let key = TypedSinkKey(selector: selector, phase: phase, types: ObjectIdentifier(types))
        let className = base.runtimeClass.name
        do {
            let state = try InterceptionState.of(base)
            let object = base.pointer
            let sink = try state.typedSink(key: key, for: base) { signature throws(InterceptionError) in
                try TypedArgumentsSink<repeat each T>(
                    object: object, selector: selector, phase: phase, className: className,
                    signature: signature, makeDelivery: makeDelivery)
            }
            return sink.observable(of: sink.subject.asObservable())
        } catch let error as InterceptionError {
            return .error(error)
        } catch {
            return .error(runtimeFailure(error, selector))
        }
    }

    private func dealloc(before: Bool) -> Observable<Void> {
        do {
            let state = try InterceptionState.of(base)
            let sink = try state.deallocSink(for: base, before: before)
            return sink.observable(of: sink.subject.asObservable())
        } catch let error as InterceptionError {
            return .error(error)
        } catch {
            return .error(runtimeFailure(error, KnownSelectors.shared.dealloc))
        }
    }

    private func runtimeFailure(_ error: any Error, _ selector: Selector) -> InterceptionError {
        .runtimeFailure(
            className: base.runtimeClass.name, selector: selector,
            error: error as? RuntimeError ?? RuntimeError(statusName: "IC_ERR_UNKNOWN", message: "\(error)"),
            isClassMethod: InterceptionError.isClassObject(base.pointer))
    }
}
