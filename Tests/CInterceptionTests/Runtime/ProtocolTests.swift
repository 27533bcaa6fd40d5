import CInterception
import Glibc
import Testing

/// Allocates a protocol with a unique name, fills it and registers it.
private func makeProtocol(
    _ base: String, methods: [(String, String, required: Bool, instance: Bool)] = [],
    incorporating: [OpaquePointer] = []
) throws -> OpaquePointer {
    let p = try #require(ic_protocol_allocate(uniqueName(base)))
    for (name, types, required, instance) in methods {
        try #require(ic_protocol_add_method_description(p, sel(name), types, required, instance) == IC_OK)
    }
    for other in incorporating {
        try #require(ic_protocol_add_protocol(p, other) == IC_OK)
    }
    try #require(ic_protocol_register(p) == IC_OK)
    return p
}

/// The protocols a class itself adopted.
private func protocols(of cls: CLS) -> [OpaquePointer] {
    var count = 0
    guard let list = ic_class_copy_protocol_list(cls, &count) else { return [] }
    defer { free(list) }
    return (0..<count).map { list[$0]! }
}

/// A protocol's own descriptions of one kind, as (selector name, types).
private func descriptions(_ p: OpaquePointer, required: Bool, instance: Bool) -> [String] {
    var count = 0
    guard let list = ic_protocol_copy_method_description_list(p, required, instance, &count) else {
        return []
    }
    defer { free(list) }
    return (0..<count).map {
        "\(String(cString: ic_sel_name(list[$0].sel))) \(String(cString: list[$0].types))"
    }
}

private typealias ConformsIMP = @convention(c) (ID?, SEL?, OpaquePointer?) -> Bool

/// What the object answers to `conformsToProtocol:`.
private func sendConforms(_ obj: ID, _ p: OpaquePointer?) -> Bool {
    lookup(obj, "conformsToProtocol:", as: ConformsIMP.self)(obj, sel("conformsToProtocol:"), p)
}

@Suite("Protocols")
struct ProtocolTests {
    @Test("a protocol is allocated, registered, then found by name; its name is copied")
    func allocateRegisterLookup() throws {
        let name = uniqueName("Downloading")
        let p = try #require(ic_protocol_allocate(name))
        #expect(!ic_protocol_is_registered(p))
        #expect(ic_protocol_lookup(name) == nil)  // not until registered
        #expect(ic_protocol_register(p) == IC_OK)
        #expect(ic_protocol_is_registered(p))
        #expect(ic_protocol_lookup(name) == p)
        #expect(String(cString: ic_protocol_name(p)) == name)
        #expect(ic_protocol_register(p) == IC_ERR_CLASS_ALREADY_REGISTERED)
        #expect(ic_protocol_dispose(p) == IC_ERR_CLASS_ALREADY_REGISTERED)
    }

    @Test("a duplicate name is refused, even while the first protocol is unregistered")
    func duplicateNamesAreRefused() throws {
        let name = uniqueName("DuplicateProtocol")
        let first = try #require(ic_protocol_allocate(name))
        #expect(ic_protocol_allocate(name) == nil)
        #expect(ic_error_status() == IC_ERR_DUPLICATE_CLASS)
        #expect(lastErrorMessage.contains(name))
        #expect(ic_protocol_dispose(first) == IC_OK)
        let again = try #require(ic_protocol_allocate(name))  // disposed: the name is free again
        #expect(ic_protocol_register(again) == IC_OK)
    }

    @Test("protocols and classes have separate name spaces")
    func protocolAndClassMayShareAName() throws {
        let cls = try makeClass("SharedName")
        let p = try #require(ic_protocol_allocate(ic_class_name(cls)))
        #expect(ic_protocol_register(p) == IC_OK)
    }

    @Test("method descriptions are listed by kind, in the order they were added")
    func methodDescriptionsAreListedByKind() throws {
        let p = try makeProtocol(
            "Listing",
            methods: [
                ("download:", "v@:@", required: true, instance: true),
                ("progress:", "v@:d", required: false, instance: true),
                ("cancel", "v@:", required: true, instance: true),
                ("shared", "@@:", required: true, instance: false),
                ("progress:", "v@:d", required: false, instance: false),  // same name, class side
            ])
        #expect(descriptions(p, required: true, instance: true) == ["download: v@:@", "cancel v@:"])
        #expect(descriptions(p, required: false, instance: true) == ["progress: v@:d"])
        #expect(descriptions(p, required: true, instance: false) == ["shared @@:"])
        #expect(descriptions(p, required: false, instance: false) == ["progress: v@:d"])
        var count = 99
        #expect(
            ic_protocol_copy_method_description_list(try makeProtocol("Empty"), true, true, &count) == nil)
        #expect(count == 0)
    }

    @Test(
        "a method description's encoding is validated; duplicates and changes after registration are refused")
    func methodDescriptionsAreValidated() throws {
        let p = try #require(ic_protocol_allocate(uniqueName("Validated")))
        #expect(
            ic_protocol_add_method_description(p, sel("a:"), "v@:{P=ii", true, true)
                == IC_ERR_MALFORMED_ENCODING)
        #expect(ic_error_position() == 8)
        #expect(
            ic_protocol_add_method_description(p, sel("a:"), "v:@i", true, true) == IC_ERR_SIGNATURE_MISMATCH)
        #expect(lastErrorMessage.contains("a:"))
        #expect(ic_protocol_add_method_description(p, sel("a:"), "v@:i", true, true) == IC_OK)
        #expect(ic_protocol_add_method_description(p, sel("a:"), "v@:i", false, true) == IC_ERR_METHOD_EXISTS)
        #expect(ic_protocol_add_method_description(p, sel("a:"), "v@:i", true, false) == IC_OK)  // class side
        #expect(ic_protocol_register(p) == IC_OK)
        #expect(
            ic_protocol_add_method_description(p, sel("b"), "v@:", true, true)
                == IC_ERR_CLASS_ALREADY_REGISTERED)
        #expect(descriptions(p, required: true, instance: true) == ["a: v@:i"])
    }

    @Test("a description is found in the protocol or, depth first, in those it incorporates")
    func descriptionLookupFollowsIncorporation() throws {
        let base = try makeProtocol(
            "LookupBase", methods: [("base:", "i@:i", required: false, instance: true)])
        let middle = try makeProtocol("LookupMiddle", incorporating: [base])
        let top = try makeProtocol(
            "LookupTop", methods: [("top", "v@:", required: true, instance: true)], incorporating: [middle])
        var d = ic_method_description()
        #expect(ic_protocol_get_method_description(top, sel("base:"), false, true, &d))
        #expect(d.sel == sel("base:") && String(cString: d.types) == "i@:i" && !d.required && d.instance)
        // It is optional, and an instance method.
        #expect(!ic_protocol_get_method_description(top, sel("base:"), true, true, &d))
        #expect(!ic_protocol_get_method_description(top, sel("base:"), false, false, &d))
        #expect(ic_protocol_get_method_description(top, sel("top"), true, true, &d))
        #expect(!ic_protocol_get_method_description(base, sel("top"), true, true, &d))
    }

    @Test("incorporation: registered protocols only, not itself, once, and nothing after registration")
    func incorporationRules() throws {
        let registered = try makeProtocol("Incorporated")
        let pending = try #require(ic_protocol_allocate(uniqueName("Pending")))
        let p = try #require(ic_protocol_allocate(uniqueName("Incorporating")))
        #expect(ic_protocol_add_protocol(p, pending) == IC_ERR_CLASS_NOT_REGISTERED)
        #expect(ic_protocol_add_protocol(p, p) == IC_ERR_INVALID_ARGUMENT)
        #expect(ic_protocol_add_protocol(p, registered) == IC_OK)
        #expect(ic_protocol_add_protocol(p, registered) == IC_OK)  // no change
        #expect(ic_protocol_register(p) == IC_OK)
        #expect(ic_protocol_add_protocol(p, registered) == IC_ERR_CLASS_ALREADY_REGISTERED)
        var count = 0
        let list = try #require(ic_protocol_copy_protocol_list(p, &count))
        defer { free(list) }
        #expect(count == 1 && list[0] == registered)
        #expect(ic_protocol_conforms_to_protocol(p, registered))
        #expect(ic_protocol_conforms_to_protocol(p, p))
        #expect(!ic_protocol_conforms_to_protocol(registered, p))
        #expect(ic_protocol_dispose(pending) == IC_OK)
    }

    @Test("a class conforms to what it and its superclasses adopted, and what those incorporate")
    func conformanceFollowsSuperclassesAndIncorporation() throws {
        let base = try makeProtocol("ConformBase")
        let derived = try makeProtocol("ConformDerived", incorporating: [base])
        let unrelated = try makeProtocol("ConformUnrelated")
        let parent = try makeClass("ConformParent")
        #expect(ic_class_add_protocol(parent, derived) == IC_OK)
        let child = try makeClass("ConformChild", superclass: parent)
        for cls in [parent, child] {
            #expect(ic_class_conforms_to_protocol(cls, derived))
            #expect(ic_class_conforms_to_protocol(cls, base))
            #expect(!ic_class_conforms_to_protocol(cls, unrelated))
        }
        #expect(!ic_class_conforms_to_protocol(ic_class_root(), base))
        #expect(protocols(of: parent) == [derived])
        #expect(protocols(of: child) == [])  // its own list only

        // The root class answers conformsToProtocol: for every object.
        let obj = try #require(ic_class_create_instance(child))
        defer { ic_release(obj) }
        #expect(sendConforms(obj, base))
        #expect(!sendConforms(obj, unrelated))
        #expect(!sendConforms(obj, nil))
    }

    @Test("an intercepted object still conforms: its interception subclass inherits the adoption")
    func interceptedObjectsConform() throws {
        let p = try makeProtocol("ConformIntercepted")
        let cls = try makeClass("ConformInterceptedClass", methods: [("add:", imp(addOneIMP), "i@:i")])
        #expect(ic_class_add_protocol(cls, p) == IC_OK)
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        let token = try observe(obj, "add:", IC_OBSERVE_BEFORE, { _, _ in }, Recorder())
        #expect(ic_object_get_class(obj) != cls)
        #expect(sendConforms(obj, p))
        #expect(ic_intercept_remove_observer(token) == IC_OK)
    }

    @Test("adopting: registered protocols only; twice changes nothing; an unregistered class may adopt")
    func adoptionRules() throws {
        let p = try makeProtocol("Adopted")
        let pending = try #require(ic_protocol_allocate(uniqueName("AdoptPending")))
        defer { ic_protocol_dispose(pending) }
        let cls = try #require(ic_class_allocate(uniqueName("Adopting"), nil, 0))
        #expect(ic_class_add_protocol(cls, pending) == IC_ERR_CLASS_NOT_REGISTERED)
        #expect(ic_class_add_protocol(cls, p) == IC_OK)
        #expect(ic_class_add_protocol(cls, p) == IC_OK)
        #expect(protocols(of: cls) == [p])
        #expect(ic_class_conforms_to_protocol(cls, p))
        #expect(ic_class_dispose(cls) == IC_OK)  // forgets the adoption
    }

    @Test("adoption and conformance queries from many threads agree")
    func concurrentAdoption() throws {
        let protocolsToAdopt = try (0..<8).map { try makeProtocol("Concurrent\($0)") }
        let classes = try (0..<4).map { _ in try makeClass("ConcurrentAdopter") }
        let pointers = classes.map { UInt(bitPattern: $0) }
        let protocolPointers = protocolsToAdopt.map { UInt(bitPattern: $0) }
        runOnThreads(4) { thread in
            let cls = OpaquePointer(bitPattern: pointers[thread])!
            for raw in protocolPointers {
                let p = OpaquePointer(bitPattern: raw)!
                _ = ic_class_add_protocol(cls, p)
                for other in pointers {
                    _ = ic_class_conforms_to_protocol(OpaquePointer(bitPattern: other), p)
                }
            }
        }
        for cls in classes {
            #expect(protocols(of: cls) == protocolsToAdopt)
        }
    }
}
