// Observing a numeric property as another numeric type (SPEC 17.4), as RxCocoa users get from
// NSNumber, but exact: a value the requested type cannot hold exactly is nil.
import CInterception
import RxCore

/// A number as the widest type of its kind, to convert between any two numeric types exactly.
enum ExactNumber {
    case signed(Int64)
    case unsigned(UInt64)
    case floating(Double)
}

/// The numeric types a property can be observed as, whatever the property's numeric type.
protocol ExactNumeric: PropertyValue {
    var exactNumber: ExactNumber { get }
    init?(exactly number: ExactNumber)
}

extension ExactNumeric where Self: FixedWidthInteger {
    var exactNumber: ExactNumber {
        Self.isSigned ? .signed(Int64(self)) : .unsigned(UInt64(self))
    }
    init?(exactly number: ExactNumber) {
        switch number {
        case .signed(let value): self.init(exactly: value)
        case .unsigned(let value): self.init(exactly: value)
        case .floating(let value): self.init(exactly: value)
        }
    }
}

extension ExactNumeric where Self: BinaryFloatingPoint {
    var exactNumber: ExactNumber { .floating(Double(self)) }
    init?(exactly number: ExactNumber) {
        switch number {
        case .signed(let value): self.init(exactly: value)
        case .unsigned(let value): self.init(exactly: value)
        case .floating(let value):
            // NaN is no exact value of anything but itself.
            if value.isNaN { self = .nan } else { self.init(exactly: value) }
        }
    }
}

extension Int8: ExactNumeric {}
extension Int16: ExactNumeric {}
extension Int32: ExactNumeric {}
extension Int64: ExactNumeric {}
extension Int: ExactNumeric {}
extension UInt8: ExactNumeric {}
extension UInt16: ExactNumeric {}
extension UInt32: ExactNumeric {}
extension UInt64: ExactNumeric {}
extension UInt: ExactNumeric {}
extension Float: ExactNumeric {}
extension Double: ExactNumeric {}

extension KeyPathObservation {
    /// The Swift type observed for a numeric property encoding (normalized).
    private static func numericType(ofEncoding encoding: String) -> (any ExactNumeric.Type)? {
        switch encoding {
        case "c": return Int8.self
        case "s": return Int16.self
        case "i", "l": return Int32.self
        case "q": return Int64.self
        case "C": return UInt8.self
        case "S": return UInt16.self
        case "I", "L": return UInt32.self
        case "Q": return UInt64.self
        case "f": return Float.self
        case "d": return Double.self
        default: return nil
        }
    }

    /// `key`'s values converted to `Value`, when `Value` is numeric and the key is of another
    /// numeric type; `nil` (observe as is) otherwise. Each value is converted exactly, or is
    /// `nil` (an `Int64` property observed as `Int32` emits `nil` for 2^40).
    static func convertedChanges<Value: PropertyValue>(
        of object: RuntimeObject, key: String, strong: Bool, initial: Bool, as type: Value.Type
    ) -> Observable<Value?>? {
        guard let target = Value.self as? any ExactNumeric.Type,
            let actual = object.valueType(forKey: key).map(TypeEncoding.normalized),
            !TypeEncoding.sameValue(swift: TypeEncoding.normalized(Value.propertyEncoding), method: actual),
            let source = numericType(ofEncoding: actual)
        else { return nil }
        func observe<Source: ExactNumeric>(_: Source.Type) -> Observable<Value?> {
            changes(of: object, key: key, strong: strong, initial: initial, as: Source.self).map { value in
                value.flatMap { target.init(exactly: $0.exactNumber) as? Value }
            }
        }
        return observe(source)
    }
}
