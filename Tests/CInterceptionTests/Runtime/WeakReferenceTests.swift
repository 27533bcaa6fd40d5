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

    @Test(
        "weak stores, loads and destroys on shared locations race their referents' deaths: a load is live or NULL, every location ends NULL"
    )
    func storesLoadsAndDeathsRace() throws {
        let cls = try makeClass("WeakChurn")
        let count = 8
        let slots = UnsafeMutablePointer<ID?>.allocate(capacity: count)
        slots.initialize(repeating: nil, count: count)
        defer { slots.deallocate() }
        let slotBits = UInt(bitPattern: slots)
        let classBits = UInt(bitPattern: cls)
        let violations = Violations()
        let budget = StressBudget(iterations: 20_000, seconds: 2)
        // Objects hash to different stripes, so stores move locations between stripes while
        // other threads load them and the objects die.
        runOnThreads(4) { index in
            let slots = UnsafeMutablePointer<ID?>(bitPattern: slotBits)!
            let cls = OpaquePointer(bitPattern: classBits)!
            var i = 0
            while budget.allows(i) {
                guard let obj = ic_class_create_instance(cls) else {
                    violations.note("no instance")
                    return
                }
                let stored = slots + (i &* 3 &+ index) % count
                let other = slots + (i &* 5 &+ index &* 3) % count
                if ic_weak_store(stored, obj) != IC_OK { violations.note("a store of a live object failed") }
                if let loaded = ic_weak_load_retained(other) {
                    if ic_object_get_class(loaded) != cls {
                        violations.note("loaded an object of another class")
                    }
                    if ic_object_retain_count(loaded) < 1 { violations.note("loaded a dead object") }
                    ic_release(loaded)
                }
                if i % 7 == 0 { _ = ic_weak_store(other, nil) }
                if i % 11 == 0 { ic_weak_destroy(other) }
                ic_release(obj)
                i += 1
            }
        }
        #expect(violations.all == [])
        // Every referent died, so every location was zeroed.
        for index in 0..<count {
            #expect(slots[index] == nil)
            ic_weak_destroy(slots + index)
        }
        #expect(ic_class_live_instance_count(cls) == 0)
    }
}
