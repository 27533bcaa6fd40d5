// PropertySink: a key's value after each call of its setter, read on the setter's thread.
import CInterception
import RxCore

/// Reads a key of an object as a ``PropertyValue``, through a property already looked up when
/// there is one (no lookup by name, the slot read directly while the getter is synthesized).
struct PropertyReader<Value: PropertyValue>: @unchecked Sendable {
    // @unchecked: `property` is an immortal, immutable C record; `key` is immutable.
    private let property: OpaquePointer?
    private let key: ContiguousArray<CChar>
    private let encoding: ContiguousArray<CChar>
    private let size: Int

    /// A reader of `key` on objects of `object`'s class. Throws the encoding's layout error.
    init(key: String, of object: RuntimeObject) throws(RuntimeError) {
        // A declared property of exactly this type is read through its record; anything else
        // (no declaration, another type: an error to report) by name.
        let property = ic_class_get_property(ic_object_get_class(object.pointer), key)
        self.property =
            property.map { String(cString: ic_property_type($0)) }
                == TypeEncoding.normalized(Value.propertyEncoding) ? property : nil
        self.key = key.utf8CString
        self.encoding = Value.propertyEncoding.utf8CString
        self.size = try max(TypeEncoding.layout(of: Value.propertyEncoding).size, 1)
    }

    /// The value of the key on `object` (alive for the call), `nil` if it cannot be read as
    /// `Value` (a NULL object read as a non-optional type, a failed read).
    func read(_ object: OpaquePointer) -> Value? {
        withUnsafeTemporaryAllocation(byteCount: size, alignment: 16) { buffer in
            let bytes = buffer.baseAddress!
            let status: ic_status
            if let property {
                status = ic_object_copy_property_value(object, property, bytes, size)
            } else {
                status = key.withUnsafeBufferPointer { key in
                    encoding.withUnsafeBufferPointer { encoding in
                        ic_object_copy_value_for_key(
                            object, key.baseAddress, encoding.baseAddress, bytes, size)
                    }
                }
            }
            guard status == IC_OK else { return nil }
            return Value._adoptPropertyBytes(bytes) ?? Value._valueForNull
        }
    }
}

/// Feeds property observation: after each call of a key's setter on the object, the key's value,
/// read during the call on the setter's thread (so the object is alive and the value is the one
/// that call set, unless another thread set it meanwhile).
final class PropertySink<Value: PropertyValue>: InterceptionSink, @unchecked Sendable {
    let subject = PublishSubject<Value?>()
    let reader: PropertyReader<Value>

    init(object: RuntimeObject, setter: Selector, reader: PropertyReader<Value>) {
        self.reader = reader
        super.init(
            object: object.pointer, target: .call(setter, IC_OBSERVE_AFTER),
            className: object.runtimeClass.name)
    }

    override func deliver(_ call: OpaquePointer) {
        guard let target = ic_invocation_target(call) else { return }
        subject.onNext(reader.read(target))
    }

    override func complete() { subject.onCompleted() }
}
