import CInterception
import Interception
import Testing

@Suite("Associated objects and values")
struct RuntimeObjectAssociatedTests {
    @Test("an associated object is retained, read back, replaced and removed")
    func setGetReplaceRemove() throws {
        let key = AssociationKey()
        let valueClass = try plainClass("Value")
        let owner = try plainClass("Owner").new()
        #expect(owner.associatedObject(forKey: key) == nil)
        do {
            try owner.setAssociatedObject(valueClass.new(), forKey: key)
        }
        #expect(valueClass.liveInstanceCount == 1)  // kept alive by the association
        let first = try #require(owner.associatedObject(forKey: key))
        #expect(first.actualClass == valueClass)
        try owner.setAssociatedObject(valueClass.new(), forKey: key)
        _ = consume first
        #expect(valueClass.liveInstanceCount == 1)  // the replaced value was released
        try owner.setAssociatedObject(nil, forKey: key)
        #expect(valueClass.liveInstanceCount == 0)
        #expect(owner.associatedObject(forKey: key) == nil)
    }

    @Test("retained associations are released when the owner deallocates; assigned ones are not")
    func releasedWithOwner() throws {
        let retained = AssociationKey()
        let assigned = AssociationKey()
        let valueClass = try plainClass("Held")
        let kept = valueClass.new()
        do {
            let owner = try plainClass("Dying").new()
            try owner.setAssociatedObject(valueClass.new(), forKey: retained)
            try owner.setAssociatedObject(kept, forKey: assigned, policy: .assign)
            #expect(kept.retainCount == 1)
            #expect(valueClass.liveInstanceCount == 2)
        }
        #expect(valueClass.liveInstanceCount == 1)
        #expect(kept.retainCount == 1)
    }

    @Test("removeAllAssociatedObjects releases every retained value")
    func removeAll() throws {
        let valueClass = try plainClass("Many")
        let owner = try plainClass("ManyOwner").new()
        let keys = (0..<5).map { _ in AssociationKey() }
        for key in keys {
            try owner.setAssociatedObject(valueClass.new(), forKey: key)
        }
        #expect(valueClass.liveInstanceCount == 5)
        owner.removeAllAssociatedObjects()
        #expect(valueClass.liveInstanceCount == 0)
        #expect(keys.allSatisfy { owner.associatedObject(forKey: $0) == nil })
    }

    @Test("every AssociationKey() is distinct, and a C address makes a key shared with C")
    func keys() throws {
        let keys = (0..<10_000).map { _ in AssociationKey() }
        #expect(Set(keys).count == keys.count)
        let owner = try plainClass("CKey").new()
        let value = try plainClass("CKeyValue").new()
        let address = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
        defer { address.deallocate() }
        try owner.setAssociatedObject(value, forKey: AssociationKey(address: address))
        #expect(ic_object_get_associated(owner.pointer, address) == value.pointer)
    }

    @Test("any Swift value can be associated, and is released when the owner deallocates")
    func swiftValues() throws {
        let key = AssociationKey()
        let counter = DeinitCounter()
        do {
            let owner = try plainClass("SwiftValues").new()
            try owner.setAssociatedValue(counter.make(), forKey: key)
            do {
                let stored = try #require(owner.associatedValue(forKey: key) as? DeinitCounter.Counted)
                #expect(stored.counter === counter)
            }
            try owner.setAssociatedValue("text", forKey: key)
            #expect(counter.count == 1)  // replaced
            #expect(owner.associatedValue(forKey: key) as? String == "text")
            try owner.setAssociatedValue(counter.make(), forKey: key)
            // An object association is not a Swift value.
            let other = AssociationKey()
            try owner.setAssociatedObject(RuntimeClass.root.new(), forKey: other)
            #expect(owner.associatedValue(forKey: other) == nil)
        }
        #expect(counter.count == 2)
    }
}
