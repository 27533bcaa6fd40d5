// Zombies (SPEC 14): with zombies on, a deallocated object keeps its memory and every message to
// it traps, naming its class and the selector. Every test is an exit test: zombies keep memory
// and change what a use after release does, so they are switched on only in a child process
// (ic_zombies_set_enabled: the IC_ZOMBIES environment variable is read when the library loads,
// which scripts/c-example.sh checks against the installed library). Each body builds what it
// needs itself and captures nothing.
import CInterception
import Glibc
import Testing

private typealias AddIMP = @convention(c) (OpaquePointer?, OpaquePointer?, Int32) -> Int32
private let add: AddIMP = { _, _, x in x + 1 }

/// A registered class named `name` with `add:` (i@:i). Exit-test bodies start from nothing.
private func zombieClass(_ name: String) -> OpaquePointer? {
    let cls = ic_class_allocate(name, nil, 0)
    _ = ic_class_add_method(cls, ic_sel_register("add:"), unsafeBitCast(add, to: ic_imp.self), "i@:i")
    _ = ic_class_register(cls)
    return cls
}

/// A released instance of a new class named `name`, with zombies on.
private func zombie(_ name: String) -> OpaquePointer? {
    precondition(ic_zombies_set_enabled(true) == IC_OK)
    let object = ic_class_create_instance(zombieClass(name))
    ic_release(object)
    return object
}

private func standardError(_ result: ExitTest.Result?) -> String {
    result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
}

/// Whether `text` has "-[<method>] sent to deallocated instance 0x<hex>".
private func reportsZombie(_ text: String, _ method: String) -> Bool {
    guard let range = text.firstRange(of: "-[\(method)] sent to deallocated instance 0x") else {
        return false
    }
    return text[range.upperBound...].first?.isHexDigit == true
}

@Suite("Zombies: messages to deallocated objects trap by name")
struct ZombieTests {
    @Test("a message sent to a deallocated object traps, naming its class and the selector")
    func messageTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let object = zombie("ZombieSend")
            let imp = unsafeBitCast(ic_msg_lookup(object, ic_sel_register("add:")), to: AddIMP.self)
            _ = imp(object, ic_sel_register("add:"), 1)
        }
        #expect(reportsZombie(standardError(result), "ZombieSend add:"))
    }

    @Test("retaining a deallocated object traps")
    func retainTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = ic_retain(zombie("ZombieRetain"))
        }
        #expect(reportsZombie(standardError(result), "ZombieRetain retain"))
    }

    @Test("releasing a deallocated object again traps")
    func releaseTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ic_release(zombie("ZombieRelease"))
        }
        #expect(reportsZombie(standardError(result), "ZombieRelease release"))
    }

    @Test("a selector the class never had traps as a zombie message, not as an unrecognized selector")
    func unknownSelectorTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let object = zombie("ZombieUnknown")
            _ = ic_msg_lookup(object, ic_sel_register("neverImplemented"))
        }
        let text = standardError(result)
        #expect(reportsZombie(text, "ZombieUnknown neverImplemented"))
        #expect(!text.contains("unrecognized selector"))
    }

    @Test("an object that died intercepted is named by its original class, not the interception subclass")
    func interceptedObjectNamesOriginalClass() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ic_zombies_set_enabled(true)
            let object = ic_class_create_instance(zombieClass("ZombieIntercepted"))
            precondition(ic_intercept_prepare(object, ic_sel_register("add:")) == IC_OK)
            ic_release(object)
            _ = ic_msg_lookup(object, ic_sel_register("add:"))
        }
        #expect(reportsZombie(standardError(result), "ZombieIntercepted add:"))
    }

    @Test(
        "a zombie went through its whole dealloc: weak references zeroed, no longer live, class _ICZombie_<Class>"
    )
    func zombieWasDeallocated() async {
        await #expect(processExitsWith: .success) {
            ic_zombies_set_enabled(true)
            precondition(ic_zombies_enabled())
            let cls = zombieClass("ZombieState")
            let object = ic_class_create_instance(cls)
            var weak: OpaquePointer? = nil
            precondition(ic_weak_store(&weak, object) == IC_OK)
            ic_release(object)
            precondition(ic_weak_load_retained(&weak) == nil && weak == nil)
            precondition(ic_class_live_instance_count(cls) == 0)
            precondition(String(cString: ic_object_class_name(object)) == "_ICZombie_ZombieState")
            // The zombie class is reused for the next death and cannot be instantiated or subclassed.
            let zombieClass = ic_object_get_class(object)
            let second = ic_class_create_instance(cls)
            ic_release(second)
            precondition(ic_object_get_class(second) == zombieClass)
            precondition(ic_class_create_instance(zombieClass) == nil)
            precondition(ic_class_allocate("ZombieSubclass", zombieClass, 0) == nil)
            ic_weak_destroy(&weak)
            // The zombies' memory is kept on purpose: leave without LeakSanitizer's exit-time
            // check (in the sanitizer runs of CI), which would report it.
            _exit(0)
        }
    }

    @Test("with zombies switched off again, deallocated objects are freed and not renamed")
    func switchedOff() async {
        await #expect(processExitsWith: .success) {
            ic_zombies_set_enabled(true)
            ic_zombies_set_enabled(false)
            precondition(!ic_zombies_enabled())
            let cls = zombieClass("ZombieOff")
            let live = ic_object_live_count()
            ic_release(ic_class_create_instance(cls))
            precondition(ic_object_live_count() == live)
            precondition(ic_class_lookup("_ICZombie_ZombieOff") == nil)
        }
    }

    @Test(
        "turning zombies on makes every registered class's zombie class ahead, so a deallocation needs no memory"
    )
    func zombieClassesMadeAhead() async {
        await #expect(processExitsWith: .success) {
            let cls = zombieClass("ZombieAhead")
            let object = ic_class_create_instance(cls)
            precondition(ic_class_lookup("_ICZombie_ZombieAhead") == nil)
            precondition(ic_zombies_set_enabled(true) == IC_OK)
            precondition(ic_class_lookup("_ICZombie_ZombieAhead") != nil)
            ic_release(object)  // created before zombies were on: its zombie class is there
            precondition(String(cString: ic_object_class_name(object)) == "_ICZombie_ZombieAhead")
            _exit(0)  // zombies keep their memory (LeakSanitizer in CI's sanitizer runs)
        }
    }

    @Test("a class whose zombie name is taken by another class still gets zombies, under a numbered name")
    func zombieNameTaken() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = zombieClass("_ICZombie_ZombieTaken")
            _ = ic_zombies_set_enabled(true)
            let object = ic_class_create_instance(zombieClass("ZombieTaken"))
            ic_release(object)
            precondition(String(cString: ic_object_class_name(object)) == "_ICZombie_ZombieTaken_2")
            _ = ic_msg_lookup(object, ic_sel_register("add:"))
        }
        #expect(reportsZombie(standardError(result), "ZombieTaken add:"))
    }

    @Test("a class whose name is longer than 250 characters gets zombies too")
    func zombieLongName() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = ic_zombies_set_enabled(true)
            let object = ic_class_create_instance(zombieClass(String(repeating: "Z", count: 300)))
            ic_release(object)
            _ = ic_msg_lookup(object, ic_sel_register("add:"))
        }
        #expect(reportsZombie(standardError(result), String(repeating: "Z", count: 300) + " add:"))
    }
}
