import CInterception
import CInterceptionTestSupport
import Testing

// Area: objects' raw storage (ic_object_storage, ic_object_storage_size,
// ic_object_storage_for_class). Purpose: a raw pointer into an object never lies outside it: an
// interception subclass resolves to the storage its original class declared, and a class or
// object without storage is an error, not a pointer past the allocation.

@Suite("Object storage: pointers stay inside the object")
struct ObjectStorageTests {
    @Test("the storage of an intercepted object's actual class is the storage its class declared")
    func interceptionSubclassResolvesToOriginalStorage() throws {
        let cls = try makeClass("SIntercepted", storage: 16, methods: [("add:", imp(addOneIMP), "i@:i")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        let declared = try #require(ic_object_storage_for_class(obj, cls))
        try observe(obj, "add:", IC_OBSERVE_BEFORE, recordBefore, Recorder())
        let actual = try #require(ic_object_get_class(obj))
        #expect(actual != cls)
        #expect(ic_object_storage_for_class(obj, actual) == declared)
        #expect(ic_object_storage(obj) == declared)
        #expect(ic_object_storage_size(obj) == 16)
    }

    @Test("a class that declared no storage has none: NULL and an error naming it")
    func classWithoutStorageIsRefused() throws {
        let base = try makeClass("SBase", storage: 8)
        let sub = try makeClass("SNoStorage", superclass: base)
        let obj = try #require(ic_class_create_instance(sub))
        defer { ic_release(obj) }
        ic_error_clear()
        #expect(ic_object_storage_for_class(obj, sub) == nil)
        #expect(statusName(ic_error_status()) == "IC_ERR_INVALID_ARGUMENT")
        #expect(lastErrorMessage.contains("declares no storage"))
        #expect(lastErrorMessage.contains(String(cString: ic_class_name(sub))))
        // The superclass's storage is still there, and inside the object.
        let storage = try #require(ic_object_storage_for_class(obj, base))
        #expect(storage == ic_object_storage(obj))
        #expect(ic_object_storage_size(obj) >= 8)  // the allocation is rounded up to 16 bytes
    }

    @Test("an intercepted object whose classes declared no storage has none")
    func interceptedObjectWithoutStorage() throws {
        let cls = try makeClass("SNone", methods: [("add:", imp(addOneIMP), "i@:i")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        try observe(obj, "add:", IC_OBSERVE_BEFORE, recordBefore, Recorder())
        ic_error_clear()
        #expect(ic_object_storage_for_class(obj, ic_object_get_class(obj)) == nil)
        #expect(statusName(ic_error_status()) == "IC_ERR_INVALID_ARGUMENT")
        ic_error_clear()
        #expect(ic_object_storage(obj) == nil)
        #expect(statusName(ic_error_status()) == "IC_ERR_INVALID_ARGUMENT")
        #expect(lastErrorMessage.contains("has no storage"))
        #expect(ic_object_storage_size(obj) == 0)
    }

    @Test("a class that is not in the object's chain is refused")
    func foreignClassIsRefused() throws {
        let a = try makeClass("SA", storage: 8)
        let b = try makeClass("SB", storage: 8)
        let obj = try #require(ic_class_create_instance(a))
        defer { ic_release(obj) }
        ic_error_clear()
        #expect(ic_object_storage_for_class(obj, b) == nil)
        #expect(statusName(ic_error_status()) == "IC_ERR_INVALID_ARGUMENT")
    }
}
