import CInterception
import Glibc
import Testing

// Area: per-thread autorelease pools (ic_autorelease, autorelease.c). Purpose: what is parked
// lives until the pool pops back past it, newest first, or until the thread exits; a weak
// property's getter returns its object +0 but parked, so it survives the loss of its last strong
// reference until the caller's pool pops (objc4: objc_loadWeakRetained + autorelease).

private typealias ObjectSetterIMP = @convention(c) (ID?, SEL?, ID?) -> Void

/// A weak location on `obj`, to tell when it starts deallocating (zeroed then).
private func watching<R>(_ obj: ID, _ body: (UnsafeMutablePointer<ID?>) throws -> R) rethrows -> R {
    try withWeak { watch in
        #expect(ic_weak_store(watch, obj) == IC_OK)
        return try body(watch)
    }
}

@Suite("Autorelease pools")
struct AutoreleaseTests {
    @Test("a popped pool releases what was parked above its mark, and only that")
    func popReleasesAboveTheMark() throws {
        let cls = try makeClass("Autorelease")
        let outer = try #require(ic_class_create_instance(cls))
        let inner = try #require(ic_class_create_instance(cls))
        let base = ic_autorelease_pool_push()
        #expect(ic_autorelease(outer) == outer)  // takes over the creation reference
        let mark = ic_autorelease_pool_push()
        #expect(mark == base + 1)
        _ = ic_autorelease(inner)
        _ = ic_autorelease_free(strdup("a parked C string"))
        #expect(ic_autorelease_pool_count() == base + 3)
        watching(inner) { innerWatch in
            watching(outer) { outerWatch in
                ic_autorelease_pool_pop(mark)
                #expect(innerWatch.pointee == nil)
                #expect(outerWatch.pointee == outer)
                #expect(ic_autorelease_pool_count() == base + 1)
                ic_autorelease_pool_pop(base)
                #expect(outerWatch.pointee == nil)
            }
        }
        #expect(ic_autorelease_pool_count() == base)
        ic_autorelease_pool_pop(base + 10)  // deeper than the pool: nothing
    }

    @Test("a weak property's getter keeps its object alive until the caller's pool pops")
    func weakGetterKeepsTheObjectUntilThePoolPops() throws {
        let ownerClass = try makeClass("AutoreleaseOwner")
        let cls = try #require(ic_class_allocate(uniqueName("AutoreleaseWeakOwner"), ownerClass, 0))
        try #require(
            ic_class_add_property(cls, "friend", "@", UInt32(IC_PROPERTY_WEAK.rawValue), nil, nil) != nil)
        try #require(ic_class_register(cls) == IC_OK)
        let owner = try #require(ic_class_create_instance(cls))
        defer { ic_release(owner) }
        let friend = try #require(ic_class_create_instance(ownerClass))
        fn(ic_msg_lookup(owner, sel("setFriend:")), as: ObjectSetterIMP.self)(
            owner, sel("setFriend:"), friend)

        let mark = ic_autorelease_pool_push()
        let got = fn(ic_msg_lookup(owner, sel("friend")), as: ObjectIMP.self)(owner, sel("friend"))
        #expect(got == friend)
        #expect(ic_autorelease_pool_count() == mark + 1)
        watching(friend) { watch in
            ic_release(friend)  // the last strong reference, as another thread might drop it
            #expect(watch.pointee == friend)  // still alive: the pool holds it
            #expect(ic_object_retain_count(friend) == 1)
            ic_autorelease_pool_pop(mark)
            #expect(watch.pointee == nil)
        }
        // Gone: the getter now answers NULL and parks nothing.
        #expect(fn(ic_msg_lookup(owner, sel("friend")), as: ObjectIMP.self)(owner, sel("friend")) == nil)
        #expect(ic_autorelease_pool_count() == mark)
    }

    @Test("what a thread leaves parked is released when it exits")
    func threadExitReleasesWhatIsLeft() throws {
        let cls = try makeClass("AutoreleaseExit")
        let obj = try #require(ic_class_create_instance(cls))
        try watching(obj) { watch in
            let parked = UnsafeMutableRawPointer(obj)
            var thread = pthread_t()
            let created = pthread_create(
                &thread, nil,
                { argument in
                    _ = ic_autorelease(OpaquePointer(argument))
                    return nil
                }, parked)
            try #require(created == 0)
            pthread_join(thread, nil)
            #expect(watch.pointee == nil)
        }
    }
}
