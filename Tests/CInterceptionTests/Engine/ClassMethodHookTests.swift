import CInterception
import CInterceptionTestSupport
import Testing

// Area: class-wide hooks on class methods (ic_hook_class on a metaclass, SPEC §10.4). Purpose:
// a class method is hooked like an instance method of the metaclass: before, instead and after
// run in their order, subclasses' class objects included; an inherited class method gets an
// override in the subclass's metaclass; removal gives the exact method back.

private let scaleIMP: Int32Int32IMP = { _, _, x in x &* 100 }

private func scale(_ cls: CLS?, _ x: Int32) -> Int32 {
    let receiver = ic_class_object(cls)
    return fn(ic_msg_lookup(receiver, sel("scale:")), as: Int32Int32IMP.self)(receiver, sel("scale:"), x)
}

private func address(_ f: ic_imp?) -> UInt { unsafeBitCast(f, to: UInt.self) }

@Suite("Class-method hooks")
struct ClassMethodHookTests {
    @Test("before, instead and after hooks on a class method run in order; removal restores the exact IMP")
    func positions() throws {
        let cls = try makeClass("CMHook", classMethods: [("scale:", imp(scaleIMP), "i@:i")])
        let meta = try #require(ic_class_metaclass(cls))
        let original = address(ic_method_imp(ic_class_get_own_method(meta, sel("scale:"))))
        let log = Recorder()
        let receiver = UInt(bitPattern: ic_class_object(cls))
        let before = try hookClass(meta, "scale:", IC_HOOK_BEFORE) { call in
            let this = UInt(bitPattern: ic_invocation_target(call))
            log.record("before \(int32Argument(call)) \(this == receiver ? "class" : "?")")
            setInt32Argument(call, int32Argument(call) + 1)
        }
        let instead = try hookClass(meta, "scale:", IC_HOOK_INSTEAD) { call in
            log.record("instead \(int32Argument(call))")
            ic_hook_call_original(call)
            setInt32Return(call, int32Return(call) + 5)
        }
        let after = try hookClass(meta, "scale:", IC_HOOK_AFTER) { call in
            log.record("after \(int32Return(call))")
            setInt32Return(call, -int32Return(call))
        }
        #expect(scale(cls, 1) == -205)
        #expect(log.events == ["before 1 class", "instead 2", "after 205"])
        #expect(ic_object_get_class(ic_class_object(cls)) == meta)  // the class object never moves
        #expect(ClassCounters(meta).observers == 3)
        for token in [instead, before, after] { #expect(ic_hook_remove(token) == IC_OK) }
        #expect(address(ic_method_imp(ic_class_get_own_method(meta, sel("scale:")))) == original)
        #expect(scale(cls, 1) == 100)
        #expect(ClassCounters(meta).observers == 0)
    }

    @Test(
        "a hook on a class method reaches subclasses; an inherited class method hooked on a subclass gets an override that removal takes out"
    )
    func inheritance() throws {
        let base = try makeClass("CMHookBase", classMethods: [("scale:", imp(scaleIMP), "i@:i")])
        let sub = try makeClass("CMHookSub", superclass: base)
        let log = Recorder()
        let baseToken = try hookClass(ic_class_metaclass(base), "scale:", IC_HOOK_BEFORE) { _ in
            log.record("base")
        }
        #expect(scale(sub, 1) == 100)
        #expect(log.events == ["base"])
        let subMeta = try #require(ic_class_metaclass(sub))
        #expect(ic_class_get_own_method(subMeta, sel("scale:")) == nil)
        let subToken = try hookClass(subMeta, "scale:", IC_HOOK_AFTER) { call in
            log.record("sub")
            setInt32Return(call, int32Return(call) + 1)
        }
        #expect(ic_class_get_own_method(subMeta, sel("scale:")) != nil)
        log.reset()
        #expect(scale(sub, 1) == 101)
        #expect(scale(base, 1) == 100)
        #expect(log.events == ["base", "sub", "base"])
        #expect(ic_hook_remove(subToken) == IC_OK)
        #expect(ic_class_get_own_method(subMeta, sel("scale:")) == nil)
        #expect(ic_hook_remove(baseToken) == IC_OK)
        log.reset()
        #expect(scale(sub, 2) == 200)
        #expect(log.events == [])
    }

    @Test(
        "a class method hooked and unhooked while other threads send it: every call sees the steady hook once, nothing after removal"
    )
    func concurrentHooks() async throws {
        let cls = try makeClass("CMHookStress", classMethods: [("scale:", imp(scaleIMP), "i@:i")])
        let meta = try #require(ic_class_metaclass(cls))
        let classAddress = UInt(bitPattern: cls)
        let steady = try hookClass(meta, "scale:", IC_HOOK_INSTEAD) { call in
            ic_hook_call_original(call)
            setInt32Return(call, int32Return(call) + 1)
        }
        let bad = Tally()
        let late = Tally()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    let cls = OpaquePointer(bitPattern: classAddress)
                    for i in 0..<3000 {
                        let x = Int32(i % 100)
                        let r = scale(cls, x)
                        // with or without the transient before hook (which doubles the argument)
                        if r != x * 100 + 1 && r != x * 200 + 1 { bad.calls.add(1, ordering: .relaxed) }
                    }
                }
            }
            group.addTask {
                let meta = ic_class_metaclass(OpaquePointer(bitPattern: classAddress))
                for _ in 0..<200 {
                    let removed = Tally()
                    guard
                        let token = try? hookClass(
                            meta, "scale:", IC_HOOK_BEFORE,
                            { call in
                                if removed.seen != 0 { late.calls.add(1, ordering: .relaxed) }
                                setInt32Argument(call, int32Argument(call) * 2)
                            })
                    else { continue }
                    _ = ic_hook_remove(token)
                    removed.calls.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(bad.seen == 0)
        #expect(late.seen == 0)
        ic_intercept_quiesce()
        #expect(ClassCounters(meta).observers == 1)
        #expect(ic_hook_remove(steady) == IC_OK)
        #expect(scale(cls, 3) == 300)
    }
}
