import CInterception
@testable import Interception
import Testing

// Area: hook tokens and hook state (SPEC 16.2). Purpose: cancelling says whether it removed a
// hook and whether the object or class is back to its exact original state (SwiftHook's
// cancelHook, Aspects' remove); a token says whether it is active; objects and classes (class
// methods included) answer "is this selector hooked", list their hooks and drop them all.

/// A class with `add:` (i@:i), `ping` (v@:) and a class method `make` (q@:).
private func stateClass(_ base: String) throws -> RuntimeClass {
    try RuntimeClass.define(uniqueName(base)) { c in
        try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x + 1 }
        try c.method("ping") { (this: RuntimeObject) in }
        try c.classMethod("make") { (this: RuntimeObject) -> Int in 7 }
    }
}

@Suite("Hook tokens and state (SPEC 16.2)")
struct HookTargetStateTests {
    @Test("cancelling says what it removed: nil twice, restored only when the last hook goes")
    func cancelResults() throws {
        let cls = try stateClass("StateCancel")
        let object = cls.new()
        let first = try object.hookBefore("add:") {}
        let second = try object.hookAfter("ping") { (this: RuntimeObject) in }
        #expect(first.isActive && second.isActive)
        #expect(first.cancel() == HookCancellation(restored: false, keptForeignImplementation: false))
        #expect(object.actualClass != cls)  // still hooked on ping
        #expect(!first.isActive)
        #expect(first.cancel() == nil)  // Aspects: "must not be able to deregister twice"
        #expect(second.cancel() == HookCancellation(restored: true, keptForeignImplementation: false))
        #expect(object.actualClass == cls)
        // A class: restored once its method's last hook goes.
        let a = try cls.hookBefore("add:") {}
        let b = try cls.hookInstead("add:") { (original: (Int32) -> Int32, this: RuntimeObject, x: Int32) in
            original(x)
        }
        #expect(a.cancel()?.restored == false)
        #expect(b.cancel()?.restored == true)
        #expect(try cls.new().send("add:", Int32(1)) as Int32 == 2)
    }

    @Test("a one-shot hook is inactive once it fired; cancelling it then removes nothing")
    func oneShotToken() throws {
        let object = try stateClass("StateOneShot").new()
        let token = try object.hookBefore("ping", oneShot: true) {}
        #expect(
            object.hooks == [InstalledHook(token: token, selector: "ping", position: .before, oneShot: true)])
        try object.send("ping")
        #expect(!token.isActive)
        #expect(token.cancel() == nil)
        #expect(object.hooks.isEmpty)
    }

    @Test("an object lists its own hooks in call order, not its class's nor its rx subscriptions")
    func objectListing() throws {
        let cls = try stateClass("StateList")
        let object = cls.new()
        let classHook = try cls.hookBefore("add:") {}
        defer { classHook.cancel() }
        let subscription = object.rx.sentMessage("add:").subscribe()
        defer { subscription.dispose() }
        let after = try object.hookAfter("add:") { (result: Int32, this: RuntimeObject, x: Int32) in result }
        let before = try object.hookBefore("add:") { (this: RuntimeObject, x: Int32) in }
        let instead = try object.hook("add:", .instead) { call in try call.callOriginal() }
        let ping = try object.hookBefore("ping") {}
        let dealloc = try object.hookDeallocAfter { _, _ in }
        let listed = object.hooks
        #expect(Set(listed.map(\.token)) == [after, before, instead, ping, dealloc])
        let add = listed.filter { $0.selector == "add:" }
        #expect(add.map(\.position) == [.before, .instead, .after])
        #expect(
            listed.first { $0.token == dealloc }
                == InstalledHook(token: dealloc, selector: "dealloc", position: .after, oneShot: false))
        #expect(object.isHooked("add:") && object.isHooked("ping") && object.isHooked("dealloc"))
        #expect(!object.isHooked("make"))
        #expect(cls.hooks.map(\.token) == [classHook])
        #expect("\(add[0])" == "before add:")
    }

    @Test(
        "removeAllHooks drops every hook of one selector, or all, leaving rx subscriptions and the class's hooks"
    )
    func removeAll() throws {
        let cls = try stateClass("StateRemoveAll")
        let object = cls.new()
        let classHook = try cls.hookBefore("add:") {}
        defer { classHook.cancel() }
        var seen: [Int32] = []
        let subscription = object.rx.sentMessage("add:", as: Int32.self).subscribe(onNext: { seen.append($0) }
        )
        defer { subscription.dispose() }
        let tokens = [
            try object.hookBefore("add:") {}, try object.hookAfter("add:") {},
            try object.hookBefore("ping") {},
            try object.hookDeallocAfter { _, _ in },
        ]
        #expect(object.removeAllHooks(for: "add:") == 2)
        #expect(!object.isHooked("add:"))
        #expect(object.isHooked("ping"))
        #expect(object.removeAllHooks() == 2)
        #expect(object.hooks.isEmpty)
        #expect(tokens.allSatisfy { !$0.isActive })
        #expect(object.removeAllHooks() == 0)
        #expect(try object.send("add:", Int32(4)) as Int32 == 5)
        #expect(seen == [4])  // the subscription stayed
        #expect(cls.isHooked("add:"))
        #expect(cls.removeAllHooks() == 1)
        #expect(!classHook.isActive)
    }

    @Test("class methods: the metaclass answers, lists and drops its hooks; the class does not see them")
    func classMethods() throws {
        let cls = try stateClass("StateMeta")
        let token = try cls.metaclass.hookAfter("make") { (this: RuntimeObject) in }
        #expect(cls.metaclass.isHooked("make"))
        #expect(!cls.isHooked("make"))
        #expect(cls.metaclass.hooks.map(\.token) == [token])
        #expect(try cls.send("make") as Int == 7)
        #expect(cls.metaclass.removeAllHooks(for: "make") == 1)
        #expect(!cls.metaclass.isHooked("make"))
        #expect(token.cancel() == nil)
    }

    @Test("hooks added from C are listed and removed too")
    func hooksFromC() throws {
        let object = try stateClass("StateFromC").new()
        var raw: ic_observer_token = 0
        let noop: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, _ in }
        #expect(
            ic_hook_object(object.pointer, Selector("ping").pointer, IC_HOOK_INSTEAD, 0, noop, nil, nil, &raw)
                == IC_OK)
        #expect(
            object.hooks == [
                InstalledHook(
                    token: HookToken(rawValue: raw), selector: "ping", position: .instead, oneShot: false)
            ])
        #expect(ic_hook_object_is_hooked(object.pointer, Selector("ping").pointer))
        #expect(object.removeAllHooks() == 1)
        #expect(!ic_hook_is_active(raw))
        var outcome: UInt32 = 9
        #expect(ic_hook_remove_reporting(raw, &outcome) == IC_ERR_OBSERVER_NOT_FOUND)
        #expect(outcome == 0)
    }
}
