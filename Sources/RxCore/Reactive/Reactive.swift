import Foundation

/// The namespace of reactive extensions of a type, reached through `.rx`.
///
/// Other modules extend it for their types:
///
/// ```swift
/// extension Reactive where Base: MyObject {
///     var title: Binder<String> { Binder(base) { object, title in object.title = title } }
/// }
/// ```
///
/// For classes, `object.rx.property` also gives a ``Binder`` for any writable property.
@dynamicMemberLookup
public struct Reactive<Base> {
    /// The extended value.
    public let base: Base

    /// Creates the extensions of `base`.
    public init(_ base: Base) {
        self.base = base
    }

    /// A binder that sets the property at `keyPath` of `base`.
    public subscript<Property>(dynamicMember keyPath: ReferenceWritableKeyPath<Base, Property>) -> Binder<
        Property
    >
    where Base: AnyObject {
        Binder(base) { base, value in
            base[keyPath: keyPath] = value
        }
    }
}

/// A type that has reactive extensions, reached through `.rx`.
public protocol ReactiveCompatible {
    /// The type being extended.
    associatedtype ReactiveBase

    /// The reactive extensions of the type.
    static var rx: Reactive<ReactiveBase>.Type { get set }

    /// The reactive extensions of the value.
    var rx: Reactive<ReactiveBase> { get set }
}

extension ReactiveCompatible {
    /// The reactive extensions of the type.
    public static var rx: Reactive<Self>.Type {
        get { Reactive<Self>.self }
        // Allows mutating extensions (`Self.rx.x = ...`) as in RxSwift.
        set {}
    }

    /// The reactive extensions of the value.
    public var rx: Reactive<Self> {
        get { Reactive(self) }
        // Allows mutating extensions (`value.rx.x = ...`) as in RxSwift.
        set {}
    }
}

extension NSObject: ReactiveCompatible {}
