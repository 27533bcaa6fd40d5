// Key-value coding from Swift (SPEC 12.2): values by key and key path, typed.
import CInterception

extension RuntimeObject {
    /// The value of `key`, read through its getter (a declared property's, or `getKey`, `key`
    /// or `isKey`).
    ///
    /// ```swift
    /// let count = try object.value(forKey: "count", as: Int.self)
    /// let title = try object.value(forKey: "title", as: String.self)
    /// ```
    ///
    /// - Throws: ``RuntimeError``: `IC_ERR_UNKNOWN_KEY`, `IC_ERR_SIGNATURE_MISMATCH` (the key's
    ///   type is not `T`'s encoding), `IC_ERR_INVALID_ARGUMENT` for a NULL value read as a
    ///   non-optional object, class or selector type (read it as the optional).
    public func value<T: PropertyValue>(forKey key: String, as type: T.Type = T.self) throws(RuntimeError)
        -> T
    {
        try read(key, as: type, ic_object_copy_value_for_key)
    }

    /// Sets `key` to `value` by sending its setter (so observers, hooks and property
    /// observation see the change).
    ///
    /// - Throws: ``RuntimeError``: `IC_ERR_UNKNOWN_KEY`, `IC_ERR_READONLY_KEY`,
    ///   `IC_ERR_SIGNATURE_MISMATCH`.
    public func setValue<T: PropertyValue>(_ value: T, forKey key: String) throws(RuntimeError) {
        try write(value, key, ic_object_set_value_for_key)
    }

    /// The value at the end of `keyPath` ("owner.address.city"): each key but the last names an
    /// object. A `nil` object on the way reads as the zero value (`nil` for optionals, `""` for
    /// `String`, `0`, `false`).
    ///
    /// - Throws: as ``value(forKey:as:)``, for any key of the path.
    public func value<T: PropertyValue>(forKeyPath keyPath: String, as type: T.Type = T.self)
        throws(RuntimeError)
        -> T
    {
        try read(keyPath, as: type, ic_object_copy_value_for_key_path)
    }

    /// Sets the value at the end of `keyPath`; a `nil` object on the way sets nothing.
    ///
    /// - Throws: as ``setValue(_:forKey:)``, for any key of the path.
    public func setValue<T: PropertyValue>(_ value: T, forKeyPath keyPath: String) throws(RuntimeError) {
        try write(value, keyPath, ic_object_set_value_for_key_path)
    }

    /// The type encoding of `key`'s value (its getter's result), or `nil` for an unknown key.
    public func valueType(forKey key: String) -> String? {
        ic_object_value_type_for_key(pointer, key).map { String(cString: $0) }
    }

    private typealias Reader = (
        OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeMutableRawPointer?, Int
    ) ->
        ic_status
    private typealias Writer = (
        OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeRawPointer?, Int
    ) ->
        ic_status

    private func read<T: PropertyValue>(_ key: String, as type: T.Type, _ reader: Reader) throws(RuntimeError)
        -> T
    {
        let encoding = T.propertyEncoding
        let size = try max(TypeEncoding.layout(of: encoding).size, 1)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        try RuntimeError.check(reader(pointer, key, encoding, buffer, size))
        guard let value = T._adoptPropertyBytes(buffer) ?? T._valueForNull else {
            throw RuntimeError(
                IC_ERR_INVALID_ARGUMENT,
                "\(key) of \(runtimeClass.name) is nil, which \(T.self) cannot hold; read it as \(T.self)?")
        }
        return value
    }

    private func write<T: PropertyValue>(_ value: T, _ key: String, _ writer: Writer) throws(RuntimeError) {
        let encoding = T.propertyEncoding
        let status = value._withPropertyBytes { bytes in
            writer(pointer, key, encoding, bytes.baseAddress, bytes.count)
        }
        try RuntimeError.check(status)
    }
}
