// SwiftSignature: the Swift types of a call, gathered without forwarding parameter packs.

/// The Swift types of a call (result first), as metadata pointers, plus a hash of them: what
/// identifies a call shape in the send-plan cache.
///
/// Why not the metatype of the tuple `(R, A…)`, nor a function taking the types as a pack:
/// forming a tuple type, or passing a pack of values to another function, asks the Swift
/// runtime's tuple-metadata cache (a hash-map lookup) in unspecialized generic code, on every
/// call. The element metatypes are already at hand as generic arguments; sends append them one
/// by one (`repeat signature.append((each A).self)`), which costs a few instructions each.
///
/// The first ``inlineCapacity`` types are kept, so a cached plan is confirmed exactly (its own
/// type list is compared); calls with more types than that are not cached.
@usableFromInline
struct SwiftSignature {
    @inlinable static var inlineCapacity: Int { 8 }

    // No default values: a stored property's initial value is not inlinable into the callers'
    // modules (it would be a call per send).
    @usableFromInline var hash: UInt64
    @usableFromInline var count: Int
    @usableFromInline var types: InlineArray<8, UInt>

    @inlinable @inline(__always)
    init<R: RuntimeValue>(_ result: R.Type) {
        hash = 0x243F_6A88_85A3_08D3
        count = 0
        types = InlineArray(repeating: 0)
        append(result)
    }

    /// Adds the next argument type.
    /// The hash mixes each type's ``RuntimeValue/_signatureSeed`` when it states one: the
    /// standard types do, so a specialized send's hash folds to a constant. (Mixing metadata
    /// addresses, which are loaded at run time, put two multiplications before the send cache's
    /// probe could index its table.) The exact type list is kept either way.
    @inlinable @inline(__always)
    mutating func append<T: RuntimeValue>(_ type: T.Type) {
        let bits = UInt(bitPattern: ObjectIdentifier(type))
        if count < Self.inlineCapacity {
            types[count] = bits
        }
        count += 1
        let seed = T._signatureSeed != 0 ? T._signatureSeed : UInt64(bits)
        let x = (hash ^ seed) &* 0x9E37_79B9_7F4A_7C15
        hash = x ^ (x >> 29)
    }

    /// This signature with `type` appended.
    @inlinable @inline(__always)
    func appending<T: RuntimeValue>(_ type: T.Type) -> SwiftSignature {
        var signature = self
        signature.append(type)
        return signature
    }

    /// Whether the signature can be confirmed exactly (and so cached).
    @inlinable @inline(__always)
    var isCacheable: Bool { count <= Self.inlineCapacity }

    /// Whether `other` holds exactly these types.
    @inlinable @inline(__always)
    func matches(_ other: borrowing SwiftSignature) -> Bool {
        guard isCacheable, other.count == count else { return false }
        for index in 0..<count where other.types[index] != types[index] {
            return false
        }
        return true
    }
}
