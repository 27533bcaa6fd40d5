// SelectorLiteralCache: string-literal selectors without a trip through the runtime's selector
// table on every use.
import CInterception
import Synchronization

/// Remembers the selector of each string literal, keyed by the literal's address.
///
/// `ic_sel_register` takes the runtime's selector lock and hashes the name, which would be paid
/// on every `send("add:", …)`. A literal's `StaticString` storage is immortal and never moves, so
/// its address identifies it; this cache maps it to the selector with one atomic load and a
/// short name comparison.
///
/// Invariants: a slot holds 0 or the bit pattern of an immortal selector. A slot may be
/// overwritten by another literal hashing to it, or raced by two threads registering the same
/// literal; readers therefore confirm a hit by comparing the selector's name with the literal's
/// bytes, so a stale or foreign slot is only a miss, never a wrong answer.
final class SelectorLiteralCache: Sendable {
    static let shared = SelectorLiteralCache()

    private static let slotCount = 512
    private let slots: InlineArray<512, Atomic<UInt>> = InlineArray { _ in Atomic(0) }

    func selector(for literal: StaticString) -> Selector {
        guard literal.hasPointerRepresentation else {
            return Selector(literal.description)
        }
        let address = UInt(bitPattern: literal.utf8Start)
        let slot =
            Int(truncatingIfNeeded: (address >> 3) &* 0x9E37_79B9_7F4A_7C15 >> 55)
            & (Self.slotCount - 1)
        let cached = slots[slot].load(ordering: .acquiring)
        if cached != 0, let sel = OpaquePointer(bitPattern: cached), Self.names(sel, literal) {
            return Selector(pointer: sel)
        }
        let selector = literal.withUTF8Buffer { utf8 in
            Selector(String(decoding: utf8, as: UTF8.self))
        }
        slots[slot].store(UInt(bitPattern: selector.pointer), ordering: .releasing)
        return selector
    }

    /// Whether `sel`'s name is exactly the literal's text.
    private static func names(_ sel: OpaquePointer, _ literal: StaticString) -> Bool {
        guard let name = ic_sel_name(sel) else { return false }
        let count = literal.utf8CodeUnitCount
        let start = literal.utf8Start
        for i in 0..<count where UInt8(bitPattern: name[i]) != start[i] {
            return false
        }
        return name[count] == 0
    }
}
