import CInterception
import Interception
import Testing

@Suite("Object storage from Swift: never memory the object does not own")
struct RuntimeObjectStorageTests {
    @Test(
        "inside a method closure, the storage of an intercepted object's actual class is its class's storage")
    func actualClassOfInterceptedObject() throws {
        let cls = try RuntimeClass.define(uniqueName("StoreActual"), storageSize: 8) { c in
            try c.method("store:") { (this: RuntimeObject, x: Int) in
                // actualClass is the interception subclass once the object is observed.
                try? this.storage(for: this.actualClass).storeBytes(of: x, as: Int.self)
            }
        }
        let object = cls.new()
        var seen: [[Any]] = []
        let subscription = object.rx.sentMessage("store:").subscribe(onNext: { seen.append($0) })
        defer { subscription.dispose() }
        #expect(object.actualClass != cls)
        try object.send("store:", 42)
        #expect(seen.count == 1)
        let declared = try object.storage(for: cls)
        #expect(try object.storage(for: object.actualClass) == declared)
        #expect(declared.load(as: Int.self) == 42)
    }

    @Test("a class that declared no storage throws instead of handing out a pointer past the object")
    func classWithoutStorageThrows() throws {
        let cls = try plainClass("NoStorage")
        let object = cls.new()
        let error = try #require(throws: RuntimeError.self) { try object.storage(for: cls) }
        #expect(error.statusName == "IC_ERR_INVALID_ARGUMENT")
        #expect(error.message.contains("declares no storage"))
        let sub = try plainClass(
            "NoStorageSub", superclass: try RuntimeClass.define(uniqueName("Has"), storageSize: 8) { _ in })
        let error2 = try #require(throws: RuntimeError.self) { try sub.new().storage(for: sub) }
        #expect(error2.message.contains("declares no storage"))
    }
}
