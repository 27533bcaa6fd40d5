import CInterception
import Testing

// Keys are compared by address: two distinct, stable addresses.
nonisolated(unsafe) private let keyA = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
nonisolated(unsafe) private let keyB = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
nonisolated(unsafe) private let keyAbsent = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)

@Suite("Associated objects")
struct AssociatedObjectTests {
    let cls: CLS

    init() throws {
        cls = try makeClass("Assoc")
    }

    func make() throws -> ID { try #require(ic_class_create_instance(cls)) }

    @Test("a retained value is retained, found, and released when replaced")
    func retainPolicy() throws {
        let owner = try make()
        let value = try make()
        let replacement = try make()
        #expect(ic_object_set_associated(owner, keyA, value, IC_ASSOCIATION_RETAIN) == IC_OK)
        #expect(ic_object_retain_count(value) == 2)
        #expect(ic_object_get_associated(owner, keyA) == value)
        #expect(ic_object_set_associated(owner, keyA, replacement, IC_ASSOCIATION_RETAIN) == IC_OK)
        #expect(ic_object_retain_count(value) == 1)
        #expect(ic_object_get_associated(owner, keyA) == replacement)
        #expect(ic_object_set_associated(owner, keyA, nil, IC_ASSOCIATION_RETAIN) == IC_OK)
        #expect(ic_object_retain_count(replacement) == 1)
        #expect(ic_object_get_associated(owner, keyA) == nil)
        for o in [owner, value, replacement] { ic_release(o) }
        #expect(ic_class_live_instance_count(cls) == 0)
    }

    @Test("an assigned value is not retained")
    func assignPolicy() throws {
        let owner = try make()
        let value = try make()
        #expect(ic_object_set_associated(owner, keyA, value, IC_ASSOCIATION_ASSIGN) == IC_OK)
        #expect(ic_object_retain_count(value) == 1)
        #expect(ic_object_get_associated(owner, keyA) == value)
        ic_release(owner)
        #expect(ic_object_retain_count(value) == 1)
        ic_release(value)
    }

    @Test("keys are independent, and copy returns a retained value")
    func keysAndCopy() throws {
        let owner = try make()
        let a = try make()
        let b = try make()
        ic_object_set_associated(owner, keyA, a, IC_ASSOCIATION_RETAIN)
        ic_object_set_associated(owner, keyB, b, IC_ASSOCIATION_RETAIN)
        #expect(ic_object_get_associated(owner, keyA) == a)
        #expect(ic_object_get_associated(owner, keyB) == b)
        let copied = ic_object_copy_associated(owner, keyB)
        #expect(copied == b)
        #expect(ic_object_retain_count(b) == 3)
        ic_release(copied)
        #expect(ic_object_copy_associated(owner, keyAbsent) == nil)
        ic_release(a)
        ic_release(b)
        ic_release(owner)  // releases both associations
        #expect(ic_class_live_instance_count(cls) == 0)
    }

    @Test("removing all associations releases the retained values")
    func removeAll() throws {
        let owner = try make()
        let value = try make()
        ic_object_set_associated(owner, keyA, value, IC_ASSOCIATION_RETAIN)
        #expect(ic_object_remove_associated_objects(owner) == IC_OK)
        #expect(ic_object_retain_count(value) == 1)
        #expect(ic_object_get_associated(owner, keyA) == nil)
        ic_release(value)
        ic_release(owner)
    }

    @Test("bad arguments are refused")
    func badArguments() throws {
        let owner = try make()
        defer { ic_release(owner) }
        #expect(ic_object_set_associated(nil, keyA, owner, IC_ASSOCIATION_RETAIN) == IC_ERR_INVALID_ARGUMENT)
        #expect(ic_object_set_associated(owner, nil, owner, IC_ASSOCIATION_RETAIN) == IC_ERR_INVALID_ARGUMENT)
        #expect(
            ic_object_set_associated(owner, keyA, owner, ic_association_policy(rawValue: 7))
                == IC_ERR_INVALID_ARGUMENT)
        #expect(ic_object_remove_associated_objects(nil) == IC_ERR_INVALID_ARGUMENT)
        #expect(ic_object_get_associated(nil, keyA) == nil)
        // Removing from an object that never had associations is fine.
        #expect(ic_object_set_associated(owner, keyB, nil, IC_ASSOCIATION_RETAIN) == IC_OK)
    }

    @Test("concurrent replacement keeps every count balanced")
    func concurrentReplacement() async throws {
        let owner = try make()
        let values = try (0..<8).map { _ in try make() }
        let ownerBits = UInt(bitPattern: owner)
        let valueBits = values.map { UInt(bitPattern: $0) }
        await withTaskGroup(of: Void.self) { group in
            for t in 0..<4 {
                group.addTask {
                    let o = OpaquePointer(bitPattern: ownerBits)
                    for i in 0..<2_000 {
                        let v = OpaquePointer(bitPattern: valueBits[(i + t) % valueBits.count])
                        ic_object_set_associated(o, keyA, v, IC_ASSOCIATION_RETAIN)
                        let c = ic_object_copy_associated(o, keyA)
                        #expect(c != nil)
                        ic_release(c)
                    }
                }
            }
        }
        ic_object_set_associated(owner, keyA, nil, IC_ASSOCIATION_RETAIN)
        for v in values { #expect(ic_object_retain_count(v) == 1) }
        for v in values { ic_release(v) }
        ic_release(owner)
        #expect(ic_class_live_instance_count(cls) == 0)
    }
}
