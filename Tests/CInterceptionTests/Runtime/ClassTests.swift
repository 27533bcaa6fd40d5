import CInterception
import Testing

@Suite("Classes")
struct ClassTests {
    @Test("the root class is named Object and has no superclass")
    func rootClass() {
        let root = ic_class_root()
        #expect(String(cString: ic_class_name(root)) == "Object")
        #expect(ic_class_superclass(root) == nil)
        #expect(ic_class_lookup("Object") == root)
        #expect(ic_class_is_registered(root))
        #expect(ic_class_instance_size(root) == 32)
    }

    @Test("a class is allocated, registered, then found by name")
    func allocateRegisterLookup() throws {
        let name = uniqueName("Lifecycle")
        let cls = try #require(ic_class_allocate(name, nil, 0))
        #expect(!ic_class_is_registered(cls))
        #expect(ic_class_lookup(name) == nil)  // not until registered
        #expect(ic_class_register(cls) == IC_OK)
        #expect(ic_class_lookup(name) == cls)
        #expect(ic_class_superclass(cls) == ic_class_root())
        #expect(String(cString: ic_class_name(cls)) == name)
    }

    @Test("registering twice is refused")
    func registeringTwiceIsRefused() throws {
        let cls = try makeClass("Twice")
        #expect(ic_class_register(cls) == IC_ERR_CLASS_ALREADY_REGISTERED)
        #expect(lastErrorMessage.contains("already registered"))
    }

    @Test("a duplicate name is refused, even while the first class is unregistered")
    func duplicateNamesAreRefused() throws {
        let name = uniqueName("Duplicate")
        let first = try #require(ic_class_allocate(name, nil, 0))
        #expect(ic_class_allocate(name, nil, 0) == nil)
        #expect(ic_error_status() == IC_ERR_DUPLICATE_CLASS)
        #expect(ic_class_dispose(first) == IC_OK)
        // Disposed: the name is free again.
        let again = try #require(ic_class_allocate(name, nil, 0))
        #expect(ic_class_register(again) == IC_OK)
    }

    @Test("a registered class cannot be disposed")
    func registeredClassesAreImmortal() throws {
        let cls = try makeClass("Immortal")
        #expect(ic_class_dispose(cls) == IC_ERR_CLASS_ALREADY_REGISTERED)
        #expect(ic_class_dispose(nil) == IC_ERR_INVALID_ARGUMENT)
    }

    @Test("subclassing an unregistered class is refused")
    func unregisteredSuperclassIsRefused() throws {
        let parent = try #require(ic_class_allocate(uniqueName("Parent"), nil, 0))
        #expect(ic_class_allocate(uniqueName("Child"), parent, 0) == nil)
        #expect(ic_error_status() == IC_ERR_CLASS_NOT_REGISTERED)
        #expect(ic_class_dispose(parent) == IC_OK)
    }

    @Test("bad names are refused")
    func badNamesAreRefused() {
        #expect(ic_class_allocate("", nil, 0) == nil)
        #expect(ic_error_status() == IC_ERR_INVALID_ARGUMENT)
        #expect(ic_class_allocate(nil, nil, 0) == nil)
        #expect(ic_error_status() == IC_ERR_INVALID_ARGUMENT)
        #expect(ic_class_register(nil) == IC_ERR_INVALID_ARGUMENT)
    }

    @Test("absurd storage sizes are refused with IC_ERR_LIMIT")
    func hugeStorageIsRefused() {
        #expect(ic_class_allocate(uniqueName("Huge"), nil, Int.max) == nil)
        #expect(ic_error_status() == IC_ERR_LIMIT)
    }

    @Test("storage of each class in a chain is laid out after its superclass's, 16-aligned")
    func storageLayout() throws {
        let base = try makeClass("StorageBase", storage: 12)
        let derived = try makeClass("StorageDerived", superclass: base, storage: 8)
        #expect(ic_class_storage_offset(base) == 32)
        #expect(ic_class_storage_size(base) == 12)
        #expect(ic_class_instance_size(base) == 44)
        #expect(ic_class_storage_offset(derived) == 48)
        #expect(ic_class_instance_size(derived) == 56)

        let obj = try #require(ic_class_create_instance(derived))
        defer { ic_release(obj) }
        let storage = try #require(ic_object_storage(obj))
        #expect(ic_object_storage_for_class(obj, base) == storage)
        let derivedStorage = try #require(ic_object_storage_for_class(obj, derived))
        #expect(derivedStorage - storage == 16)
        // Zeroed at creation, writable from Swift.
        #expect(derivedStorage.load(as: UInt64.self) == 0)
        derivedStorage.storeBytes(of: 0xfeed, as: UInt64.self)
        #expect(derivedStorage.load(as: UInt64.self) == 0xfeed)
        // Not an instance of an unrelated class.
        let other = try makeClass("StorageOther", storage: 8)
        #expect(ic_object_storage_for_class(obj, other) == nil)
        #expect(ic_error_status() == IC_ERR_INVALID_ARGUMENT)
    }

    @Test("subclass relationships follow the superclass chain")
    func subclassRelationships() throws {
        let a = try makeClass("ChainA")
        let b = try makeClass("ChainB", superclass: a)
        #expect(ic_class_is_subclass_of(b, a))
        #expect(ic_class_is_subclass_of(b, b))
        #expect(ic_class_is_subclass_of(b, ic_class_root()))
        #expect(!ic_class_is_subclass_of(a, b))
    }

    @Test("the registered-class count grows by one per registration")
    func classCount() throws {
        let before = ic_class_count()
        try makeClass("Counted")
        #expect(ic_class_count() >= before + 1)
    }

    @Test("an unregistered class cannot be instantiated")
    func unregisteredCannotBeInstantiated() throws {
        let cls = try #require(ic_class_allocate(uniqueName("NotYet"), nil, 0))
        #expect(ic_class_create_instance(cls) == nil)
        #expect(ic_error_status() == IC_ERR_CLASS_NOT_REGISTERED)
        #expect(ic_class_create_instance(nil) == nil)
        #expect(ic_error_status() == IC_ERR_INVALID_ARGUMENT)
        #expect(ic_class_dispose(cls) == IC_OK)
    }
}
