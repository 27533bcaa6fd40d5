// PropertySink: a key's value after each call of its setter, read on the setter's thread.
import CInterception
import RxCore
import Synchronization

/// Reads a key of an object as a ``PropertyValue``, through a property already looked up when
/// there is one (no lookup by name, the slot read directly while the getter is synthesized).
///
/// Not generic (only its value-reading methods are): the per-set path captures it in a closure,
/// and a generic struct there would cost a metadata lookup per set.
struct PropertyReader: @unchecked Sendable {
    // @unchecked: `property` is an immortal, immutable C record; `key` is immutable.
    private let property: OpaquePointer?
    private let key: ContiguousArray<CChar>
    private let encoding: ContiguousArray<CChar>
    private let size: Int

    /// A reader of `key` as `Value` on `object` (the only object it may read: see `copy`).
    /// Throws the encoding's layout error.
    init<Value: PropertyValue>(key: String, of object: RuntimeObject, as _: Value.Type) throws(RuntimeError) {
        // A declared property of exactly this type is read through its record; anything else
        // (no declaration, another type: an error to report) by name.
        let property = ic_class_get_property(ic_object_get_class(object.pointer), key)
        let swiftType = TypeEncoding.normalized(Value.propertyEncoding)
        self.property = property.flatMap {
            TypeEncoding.sameValue(swift: swiftType, method: String(cString: ic_property_type($0))) ? $0 : nil
        }
        self.key = key.utf8CString
        self.encoding = Value.propertyEncoding.utf8CString
        self.size = try max(TypeEncoding.layout(of: Value.propertyEncoding).size, 1)
    }

    /// The value of the key on `object` (alive for the call), `nil` if it cannot be read as
    /// `Value` (a NULL object read as a non-optional type, a NULL string, a failed read). Once
    /// per subscription: the per-set path is ``publish(_:to:)``.
    func read<Value: PropertyValue>(_ object: OpaquePointer, as _: Value.Type) -> Value? {
        withUnsafeTemporaryAllocation(byteCount: size, alignment: 16) { buffer in
            let bytes = buffer.baseAddress!
            return copy(object, into: bytes) ? Value._adoptPropertyBytes(bytes) : nil
        }
    }

    /// Sends `subject` the value of the key on `object` (alive for the call), as ``read(_:as:)``
    /// reads it, through the value type's own (specialized) code.
    func publish<Value: PropertyValue>(_ object: OpaquePointer, to subject: PublishSubject<Value?>) {
        Value._publishPropertyValue(byteCount: size, copy: { copy(object, into: $0) }, to: subject)
    }

    /// Copies the key's C value into `bytes` (`size` bytes); `false` if the read failed.
    private func copy(_ object: OpaquePointer, into bytes: UnsafeMutableRawPointer) -> Bool {
        let status: ic_status
        if let property {
            // Checked once, in `init`: the property was found on the object's class (an object
            // only ever moves to its interception subclass), and `size` holds its type.
            status = ic_object_copy_checked_property_value(object, property, bytes)
        } else {
            status = key.withUnsafeBufferPointer { key in
                encoding.withUnsafeBufferPointer { encoding in
                    ic_object_copy_value_for_key(object, key.baseAddress, encoding.baseAddress, bytes, size)
                }
            }
        }
        return status == IC_OK
    }
}

/// Feeds property observation: after each call of a key's setter on the object, the key's value,
/// read during the call on the setter's thread (so the object is alive and the value is the one
/// that call set, unless another thread set it meanwhile).
///
/// Subscribers are attached to `subject` directly (see ``KeyPathObservation``): a set costs one
/// read and one subject event, however the observation was shaped.
final class PropertySink<Value: PropertyValue>: InterceptionSink, @unchecked Sendable {
    let subject = PublishSubject<Value?>()
    let reader: PropertyReader

    init(object: RuntimeObject, setter: Selector, reader: PropertyReader) {
        self.reader = reader
        super.init(
            object: object.pointer, target: .call(setter, IC_OBSERVE_AFTER),
            className: object.runtimeClass.name)
    }

    /// How many calls of the setter were seen, counted before their value is read (see
    /// ``KeyPathObservation``: a subscriber that read the value when this was `n` and sees `n`
    /// once attached missed no change).
    var changeCount: Int { changes.load(ordering: .sequentiallyConsistent) }
    private let changes = Atomic<Int>(0)

    override func deliver(_ call: OpaquePointer) {
        guard let target = ic_invocation_target(call) else { return }
        // Wrapping: one `lock xadd`, where a trapping add is a compare-exchange loop (perf).
        changes.wrappingAdd(1, ordering: .sequentiallyConsistent)
        reader.publish(target, to: subject)
    }

    override func complete() { subject.onCompleted() }
}
