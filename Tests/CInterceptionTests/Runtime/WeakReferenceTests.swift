import CInterception
import Testing

private let storeSelfWeakly: VoidIMP = { this, cmd in
    // Forming a weak reference to an object that is deallocating must fail cleanly.
    let location = ic_object_storage(this)!.load(as: UnsafeMutablePointer<ID?>.self)
    let status = ic_weak_store(location, this)
    ic_object_storage(this)!.storeBytes(of: status.rawValue, toByteOffset: 8, as: UInt32.self)
    location.advanced(by: 1).pointee = OpaquePointer(bitPattern: UInt(status.rawValue) + 1)
    var sup = ic_super(receiver: this, super_class: superclassForSuperSend(this, cmd))
    fn(ic_msg_lookup_super(&sup, cmd), as: VoidIMP.self)(this, cmd)
}

@Suite("Weak references")
struct WeakReferenceTests {
    @Test("a weak reference loads the object while it lives and NULL after")
    func loadsUntilDealloc() throws {
        let cls = try makeClass("Weak")
        try withWeak { weak in
            let obj = try #require(ic_class_create_instance(cls))
            #expect(ic_weak_store(weak, obj) == IC_OK)
            let loaded = ic_weak_load_retained(weak)
            #expect(loaded == obj)
            #expect(ic_object_retain_count(obj) == 2)
            ic_release(loaded)
            ic_release(obj)
            #expect(weak.pointee == nil)
            #expect(ic_weak_load_retained(weak) == nil)
        }
    }

    @Test("storing another object or NULL re-registers the location")
    func restore() throws {
        let cls = try makeClass("WeakRestore")
        try withWeak { weak in
            let a = try #require(ic_class_create_instance(cls))
            let b = try #require(ic_class_create_instance(cls))
            ic_weak_store(weak, a)
            ic_weak_store(weak, b)
            ic_release(a)  // no longer referenced by the location: nothing to clear
            #expect(weak.pointee == b)
            ic_weak_store(weak, nil)
            #expect(weak.pointee == nil)
            ic_weak_store(weak, b)
            ic_release(b)
            #expect(weak.pointee == nil)
        }
    }

    @Test("several locations to one object are all zeroed")
    func severalLocations() throws {
        let cls = try makeClass("WeakMany")
        let obj = try #require(ic_class_create_instance(cls))
        let locations = UnsafeMutablePointer<ID?>.allocate(capacity: 5)
        locations.initialize(repeating: nil, count: 5)
        defer { locations.deallocate() }
        for i in 0..<5 { ic_weak_store(locations + i, obj) }
        ic_weak_destroy(locations + 2)
        #expect(locations[2] == nil)
        ic_release(obj)
        for i in 0..<5 { #expect(locations[i] == nil) }
    }

    @Test("a weak reference to a deallocating object cannot be formed")
    func deallocatingObjectIsRefused() throws {
        let cls = try makeClass("WeakDying", storage: 16, methods: [("dealloc", imp(storeSelfWeakly), "v@:")])
        try withWeak { weak in
            let obj = try #require(ic_class_create_instance(cls))
            ic_object_storage(obj)!.storeBytes(of: weak, as: UnsafeMutablePointer<ID?>.self)
            ic_release(obj)
            #expect(weak.pointee == nil)
            #expect(UInt(bitPattern: weak[1]) == UInt(IC_ERR_DEALLOCATING.rawValue) + 1)
        }
    }

    @Test("NULL locations are refused or ignored")
    func nullLocation() {
        #expect(ic_weak_store(nil, nil) == IC_ERR_INVALID_ARGUMENT)
        #expect(ic_weak_load_retained(nil) == nil)
        ic_weak_destroy(nil)
    }

    @Test("weak loads racing the final release either win a live reference or see NULL")
    func loadRacesFinalRelease() async throws {
        let cls = try makeClass("WeakRace")
        for _ in 0..<200 {
            let obj = try #require(ic_class_create_instance(cls))
            let weak = UnsafeMutablePointer<ID?>.allocate(capacity: 1)
            weak.initialize(to: nil)
            ic_weak_store(weak, obj)
            let weakBits = UInt(bitPattern: weak)
            let objBits = UInt(bitPattern: obj)
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<3 {
                    group.addTask {
                        let w = UnsafeMutablePointer<ID?>(bitPattern: weakBits)!
                        for _ in 0..<50 {
                            if let o = ic_weak_load_retained(w) {
                                #expect(ic_object_retain_count(o) >= 1)
                                ic_release(o)
                            }
                        }
                    }
                }
                group.addTask { ic_release(OpaquePointer(bitPattern: objBits)) }
            }
            #expect(weak.pointee == nil)
            ic_weak_destroy(weak)
            weak.deallocate()
        }
        #expect(ic_class_live_instance_count(cls) == 0)
    }
}
