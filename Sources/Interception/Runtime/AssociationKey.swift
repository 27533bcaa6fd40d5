// AssociationKey: a unique address to associate values with objects under.

/// A key for associated objects (see ``RuntimeObject/setAssociatedObject(_:forKey:policy:)``).
///
/// The runtime compares keys by address and never reads through them. Each key made with
/// ``init()`` gets an address of its own, reserved for the life of the process (one byte of a
/// block the keys share), so it can never collide with another key, Swift or C. Make keys once,
/// as `static let`s, as you would a C `static char key;`.
///
/// To share a key with C code, wrap its address with ``init(address:)``.
public struct AssociationKey: Hashable, Sendable {
    /// The key's address, as the C API takes it.
    public let address: UInt

    /// A new key, distinct from every other.
    public init() {
        address = AssociationKey.allocator.withLock { $0.next() }
    }

    /// The key at a C address (for example `&someStaticChar` in C).
    public init(address: UnsafeRawPointer) {
        self.address = UInt(bitPattern: address)
    }

    /// The key as a pointer, for the C API.
    var pointer: UnsafeRawPointer { UnsafeRawPointer(bitPattern: address)! }

    /// Hands out the bytes of 4 KiB blocks, one per key. The blocks are never freed (keys are
    /// forever) and stay referenced from here, so they are not leaks.
    private struct Allocator {
        static let blockSize = 4096
        var blocks: [UnsafeMutableRawPointer] = []
        var used = blockSize

        mutating func next() -> UInt {
            if used == Self.blockSize {
                blocks.append(UnsafeMutableRawPointer.allocate(byteCount: Self.blockSize, alignment: 16))
                used = 0
            }
            defer { used += 1 }
            return UInt(bitPattern: blocks[blocks.count - 1] + used)
        }
    }

    private static let allocator = Locked(Allocator())
}
