import CInterception
import Dispatch
import Glibc
import RxCore
@testable import Interception
import Synchronization
import Testing

// Area: hooks as users of Aspects (AspectsDemoTests.m) and SwiftHook (SwiftHookTests/Main) write
// them, where the existing suites do not already pin the behaviour down. Purpose: per-object and
// class-wide hooks on superclasses and subclasses with super calls; hooks removed from inside
// their own call or another hook's; one-shot hooks (Aspects' AspectOptionAutomaticRemoval); the
// info form changing an instead hook's arguments before the original; dealloc hooks using the
// object; refusals; token and class state after the last hook goes. The order is SPEC 10.1's
// (ours), not SwiftHook's.

/// CGPoint and CGRect as SwiftHook's StructTests use them.
private struct ParityPoint: RuntimeStruct, Equatable {
    var x: Double
    var y: Double
    static let runtimeEncoding = "{ParityPoint=dd}"
}

private struct ParityRect: RuntimeStruct, Equatable {
    var origin: ParityPoint
    var width: Double
    var height: Double
    static let runtimeEncoding = "{ParityRect={ParityPoint=dd}dd}"
}

/// A class `base` with `foo` (v@:, logs "<tag> foo") and `value` (i@:, 1).
private func fooClass(_ base: String, tag: String, log: EventLog, superclass: RuntimeClass = .root) throws
    -> RuntimeClass
{
    try RuntimeClass.define(uniqueName(base), superclass: superclass) { c in
        try c.method("foo") { (this: RuntimeObject) in log.append("\(tag) foo") }
        try c.method("value") { (this: RuntimeObject) -> Int32 in 1 }
    }
}

/// A subclass of `superclass` whose `foo` logs "<tag> foo" and calls super (as B in Aspects'
/// testSelectorMangling2 and MyObject in SwiftHook's OrderTests.test_casual).
private func overridingSubclass(_ base: String, tag: String, of superclass: RuntimeClass, log: EventLog)
    throws
    -> RuntimeClass
{
    try RuntimeClass.define(uniqueName(base), superclass: superclass) { c in
        try c.method("foo") { (this: RuntimeObject) in
            log.append("\(tag) foo")
            try? this.sendSuper("foo")
        }
    }
}

@Suite("Hooks as Aspects and SwiftHook users write them")
struct HookReferenceParityTests {
    // MARK: Per object and class-wide (Aspects testInsteadHook, testAspectsCalledPerObject)

    @Test(
        "an object's instead hook stays in force over a later class-wide one; removing each restores its part"
    )
    func objectInsteadOverClassInstead() throws {
        let log = EventLog()
        let cls = try fooClass("ParityLabel", tag: "A", log: log)
        let first = cls.new()
        let second = cls.new()
        let firstHook = try first.hookInstead("value") { (original: () -> Int32, this: RuntimeObject) in 10 }
        let secondHook = try second.hookInstead("value") { (original: () -> Int32, this: RuntimeObject) in 20
        }
        #expect(try first.send("value") as Int32 == 10)
        #expect(try second.send("value") as Int32 == 20)
        let global = try cls.hookInstead("value") { (original: () -> Int32, this: RuntimeObject) in 30 }
        let third = cls.new()
        #expect(try second.send("value") as Int32 == 20)
        #expect(try third.send("value") as Int32 == 30)
        #expect(global.cancel() == HookCancellation(restored: true, keptForeignImplementation: false))
        #expect(try third.send("value") as Int32 == 1)
        #expect(try first.send("value") as Int32 == 10)
        #expect(firstHook.cancel()?.restored == true)
        #expect(try first.send("value") as Int32 == 1)
        #expect(first.actualClass == cls)
        #expect(firstHook.cancel() == nil)
        #expect(secondHook.cancel()?.restored == true)
        #expect(second.actualClass == cls)
    }

    @Test(
        "a hook on one object does not run for another instance, nor when that object is called from another method"
    )
    func perObjectOnly() throws {
        let log = EventLog()
        let cls = try RuntimeClass.define(uniqueName("ParityPerObject")) { c in
            try c.method("foo") { (this: RuntimeObject) in log.append("foo") }
            try c.method("call:") { (this: RuntimeObject, other: RuntimeObject?) in try? other?.send("foo") }
        }
        let hooked = cls.new()
        let other = cls.new()
        let token = try hooked.hookAfter("foo") { log.append("hooked after") }
        try other.send("foo")
        #expect(log.all == ["foo"])
        try other.send("call:", hooked as RuntimeObject?)
        #expect(log.all == ["foo", "foo", "hooked after"])
        #expect(token.cancel()?.restored == true)
    }

    // MARK: Superclasses and subclasses (Aspects testSelectorMangling2, SwiftHook test_casual)

    @Test(
        "class hooks on a superclass and on a subclass whose method calls super each run once, either order")
    func superclassAndOverridingSubclass() throws {
        for subclassFirst in [false, true] {
            let log = EventLog()
            let a = try fooClass("ParityA", tag: "A", log: log)
            let b = try overridingSubclass("ParityB", tag: "B", of: a, log: log)
            var tokens: [HookToken] = []
            func hookA() throws { tokens.append(try a.hookBefore("foo") { log.append("before A") }) }
            func hookB() throws { tokens.append(try b.hookBefore("foo") { log.append("before B") }) }
            if subclassFirst {
                try hookB()
                try hookA()
            } else {
                try hookA()
                try hookB()
            }
            try b.new().send("foo")
            #expect(
                log.all == ["before B", "B foo", "before A", "A foo"], "subclass first: \(subclassFirst)")
            try a.new().send("foo")
            #expect(log.all.suffix(2) == ["before A", "A foo"])
            for token in tokens { #expect(token.cancel()?.restored == true) }
            try b.new().send("foo")
            #expect(log.all.suffix(2) == ["B foo", "A foo"])
        }
    }

    @Test(
        "an inherited method hooked on the subclass, then on the superclass: a subclass instance runs both hooks once"
    )
    func inheritedMethodSubclassThenSuperclass() throws {
        let log = EventLog()
        let a = try fooClass("ParityInheritA", tag: "A", log: log)
        let b = try plainClass("ParityInheritB", superclass: a)
        let subHook = try b.hookBefore("foo") { log.append("before B") }
        let superHook = try a.hookBefore("foo") { log.append("before A") }
        try b.new().send("foo")
        #expect(log.all == ["before B", "before A", "A foo"])
        try a.new().send("foo")
        #expect(log.all.suffix(2) == ["before A", "A foo"])
        #expect(superHook.cancel()?.restored == true)
        try b.new().send("foo")
        #expect(log.all.suffix(2) == ["before B", "A foo"])
        #expect(subHook.cancel()?.restored == true)
        // The override the hook added is gone: the subclass inherits the method again.
        #expect(b.method(for: "foo")?.definingClass == a)
        try b.new().send("foo")
        #expect(log.all.suffix(1) == ["A foo"])
    }

    @Test(
        "an inherited method hooked on the superclass, then on the subclass: both hooks run once; removal in any order"
    )
    func inheritedMethodSuperclassThenSubclass() throws {
        let log = EventLog()
        let a = try fooClass("ParityInherit2A", tag: "A", log: log)
        let b = try plainClass("ParityInherit2B", superclass: a)
        let superHook = try a.hookAfter("foo") { log.append("after A") }
        let subHook = try b.hookAfter("foo") { log.append("after B") }
        try b.new().send("foo")
        #expect(log.all == ["A foo", "after A", "after B"])
        #expect(subHook.cancel()?.restored == true)
        try b.new().send("foo")
        #expect(log.all.suffix(2) == ["A foo", "after A"])
        #expect(superHook.cancel()?.restored == true)
        try b.new().send("foo")
        #expect(log.all.suffix(1) == ["A foo"])
    }

    @Test("an object hook and class hooks on its class and superclass with a super call: layer by layer")
    func objectOverSubclassOverSuperclass() throws {
        let log = EventLog()
        let a = try fooClass("ParityLayersA", tag: "A", log: log)
        let b = try overridingSubclass("ParityLayersB", tag: "B", of: a, log: log)
        let object = b.new()
        let tokens = [
            try object.hookBefore("foo") { log.append("object before") },
            try object.hookAfter("foo") { log.append("object after") },
            try a.hookBefore("foo") { log.append("A before") },
            try a.hookAfter("foo") { log.append("A after") },
            try b.hookBefore("foo") { log.append("B before") },
            try b.hookAfter("foo") { log.append("B after") },
        ]
        try object.send("foo")
        #expect(
            log.all == [
                "object before", "B before", "B foo", "A before", "A foo", "A after", "B after",
                "object after",
            ])
        for token in tokens { token.cancel() }
        #expect(object.actualClass == b)
    }

    @Test("class methods hooked on a metaclass and its subclass's, the subclass's method calling super")
    func classMethodsSuperclassAndSubclass() throws {
        let log = EventLog()
        let a = try RuntimeClass.define(uniqueName("ParityMetaA")) { c in
            try c.classMethod("make") { (this: RuntimeObject) -> Int32 in
                log.append("A make")
                return 1
            }
        }
        let b = try RuntimeClass.define(uniqueName("ParityMetaB"), superclass: a) { c in
            try c.classMethod("make") { (this: RuntimeObject) -> Int32 in
                log.append("B make")
                return ((try? this.sendSuper("make") as Int32) ?? 0) + 10
            }
        }
        let tokens = [
            try a.metaclass.hookAfter("make") { (result: Int32, this: RuntimeObject) in result * 2 },
            try b.metaclass.hookAfter("make") { (result: Int32, this: RuntimeObject) in result + 100 },
        ]
        #expect(try b.send("make") as Int32 == 112)
        #expect(log.all == ["B make", "A make"])
        #expect(try a.send("make") as Int32 == 2)
        for token in tokens { #expect(token.cancel()?.restored == true) }
        #expect(try b.send("make") as Int32 == 11)
    }

    // MARK: The same selector twice (SwiftHook testHookTwice, Aspects testExecutionOrderAndMultipleRegistation)

    @Test("the same closure added twice runs twice; removing one leaves the other")
    func sameHookTwice() throws {
        let log = EventLog()
        let object = try fooClass("ParityTwice", tag: "A", log: log).new()
        let body: @Sendable () -> Void = { log.append("hook") }
        let first = try object.hookBefore("foo", body)
        let second = try object.hookBefore("foo", body)
        #expect(first != second)
        try object.send("foo")
        #expect(log.all == ["hook", "hook", "A foo"])
        #expect(first.cancel()?.restored == false)
        try object.send("foo")
        #expect(log.all.suffix(2) == ["hook", "A foo"])
        #expect(second.cancel()?.restored == true)
    }

    // MARK: Removal inside a call

    @Test(
        "a before hook that cancels itself: the call goes on, later calls do not run it, the object is restored"
    )
    func beforeCancelsItself() throws {
        let log = EventLog()
        let cls = try fooClass("ParitySelfCancel", tag: "A", log: log)
        let object = cls.new()
        let token = Locked<HookToken?>(nil)
        let outcome = Locked<HookCancellation?>(nil)
        token.withLock {
            $0 = try? object.hookBefore("foo") {
                log.append("before")
                let mine = token.withLock { $0 }
                outcome.withLock { $0 = mine?.cancel() }
            }
        }
        let after = try object.hookAfter("foo") { log.append("after") }
        try object.send("foo")
        try object.send("foo")
        #expect(log.all == ["before", "A foo", "after", "A foo", "after"])
        #expect(
            outcome.withLock { $0 } == HookCancellation(restored: false, keptForeignImplementation: false))
        #expect(after.cancel()?.restored == true)
        #expect(object.actualClass == cls)
    }

    @Test("an instead hook that cancels itself can still call its original in that call")
    func insteadCancelsItselfThenCallsOriginal() throws {
        let log = EventLog()
        let cls = try fooClass("ParitySelfCancelInstead", tag: "A", log: log)
        let object = cls.new()
        let token = Locked<HookToken?>(nil)
        token.withLock {
            $0 = try? object.hookInstead("value") { (original: () -> Int32, this: RuntimeObject) in
                let mine = token.withLock { $0 }
                let restored = mine?.cancel()?.restored
                log.append("cancelled, restored \(restored.map(String.init(describing:)) ?? "nil")")
                return original() + 41
            }
        }
        #expect(try object.send("value") as Int32 == 42)
        #expect(try object.send("value") as Int32 == 1)
        #expect(log.all == ["cancelled, restored true"])
        #expect(object.actualClass == cls)
    }

    @Test(
        "a class-wide info-form instead hook that cancels itself: the call completes, the class gets its method back"
    )
    func classInsteadCancelsItself() throws {
        let log = EventLog()
        let cls = try fooClass("ParitySelfCancelClass", tag: "A", log: log)
        let original = try #require(cls.method(for: "value")).implementationAddress
        let token = Locked<HookToken?>(nil)
        token.withLock {
            $0 = try? cls.hook("value", .instead) { call in
                _ = token.withLock { $0 }?.cancel()
                try call.callOriginal()
                try call.setReturnValue(try call.returnValue(as: Int32.self) * 7)
            }
        }
        let object = cls.new()
        #expect(try object.send("value") as Int32 == 7)
        #expect(try object.send("value") as Int32 == 1)
        #expect(cls.method(for: "value")?.implementationAddress == original)
    }

    @Test(
        "a hook that cancels a later hook of the same call: the later hook no longer runs, in that call already"
    )
    func hookCancelsAnotherHook() throws {
        let log = EventLog()
        let object = try fooClass("ParityCancelOther", tag: "A", log: log).new()
        let victim = Locked<HookToken?>(nil)
        let killer = try object.hookBefore("foo") {
            log.append("killer")
            _ = victim.withLock { $0 }?.cancel()
        }
        victim.withLock { $0 = try? object.hookAfter("foo") { log.append("victim") } }
        try object.send("foo")
        try object.send("foo")
        // Cancelled before its turn in the same call: it does not run in that call either.
        #expect(log.all == ["killer", "A foo", "killer", "A foo"])
        #expect(killer.cancel()?.restored == true)
    }

    @Test("a hook added inside a hooked call runs from the next call on")
    func hookAddedDuringCall() throws {
        let log = EventLog()
        let object = try fooClass("ParityAddDuring", tag: "A", log: log).new()
        let added = Locked<[HookToken]>([])
        let adder = try object.hookBefore("foo", oneShot: true) { this in
            if let token = try? this.hookAfter("foo", { log.append("added after") }) {
                added.withLock { $0.append(token) }
            }
            log.append("adder")
        }
        try object.send("foo")
        try object.send("foo")
        #expect(!adder.isActive)
        let firstCall = log.all.prefix(2)
        #expect(firstCall == ["adder", "A foo"])
        #expect(log.all.suffix(2) == ["A foo", "added after"])
        for token in added.withLock({ $0 }) { token.cancel() }
    }

    // MARK: One-shot hooks (Aspects testAutoDeregistration)

    @Test("a one-shot hook, the object's only one, leaves the object in its class once it fired")
    func oneShotRestoresObject() throws {
        let log = EventLog()
        let cls = try fooClass("ParityOneShotRestore", tag: "A", log: log)
        let object = cls.new()
        let token = try object.hookAfter("foo", oneShot: true) { log.append("once") }
        #expect(object.actualClass != cls)
        try object.send("foo")
        try object.send("foo")
        #expect(log.all == ["A foo", "once", "A foo"])
        #expect(!token.isActive)
        #expect(token.cancel() == nil)
        #expect(!object.isHooked("foo"))
        #expect(object.actualClass == cls)
    }

    @Test("a one-shot class-wide instead hook replaces one call, then the class has its exact method again")
    func oneShotClassInstead() throws {
        let log = EventLog()
        let cls = try fooClass("ParityOneShotClass", tag: "A", log: log)
        let original = try #require(cls.method(for: "value")).implementationAddress
        let token = try cls.hookInstead("value", oneShot: true) {
            (original: () -> Int32, this: RuntimeObject) in
            original() + 99
        }
        #expect(try cls.new().send("value") as Int32 == 100)
        #expect(try cls.new().send("value") as Int32 == 1)
        #expect(!token.isActive)
        #expect(cls.method(for: "value")?.implementationAddress == original)
    }

    @Test("a one-shot hook whose call recurses into the method runs once")
    func oneShotRecursion() throws {
        let log = EventLog()
        let object = try fooClass("ParityOneShotRecurse", tag: "A", log: log).new()
        try object.hookBefore("foo", oneShot: true) { this in
            log.append("once")
            try? this.send("foo")
        }
        try object.send("foo")
        #expect(log.all == ["once", "A foo", "A foo"])
    }

    // MARK: Recursion

    @Test("a hooked method that calls itself runs its hooks at each level")
    func recursiveMethod() throws {
        let log = EventLog()
        let cls = try RuntimeClass.define(uniqueName("ParityRecursive")) { c in
            try c.method("fact:") { (this: RuntimeObject, n: Int) -> Int in
                n <= 1 ? 1 : n * ((try? this.send("fact:", n - 1) as Int) ?? 0)
            }
        }
        let object = cls.new()
        let classHook = try cls.hookBefore("fact:") { (this: RuntimeObject, n: Int) in
            log.append("class \(n)")
        }
        let objectHook = try object.hookAfter("fact:") { (result: Int, this: RuntimeObject, n: Int) in
            log.append("object \(n) -> \(result)")
            return result
        }
        #expect(try object.send("fact:", 3) as Int == 6)
        #expect(
            log.all == ["class 3", "class 2", "class 1", "object 1 -> 1", "object 2 -> 2", "object 3 -> 6"])
        classHook.cancel()
        objectHook.cancel()
    }

    // MARK: The info form (Aspects' AspectInfo, originalInvocation)

    @Test("an info-form instead hook changes the arguments, then calls the original, several times")
    func infoInsteadChangesArguments() throws {
        let log = EventLog()
        let cls = try RuntimeClass.define(uniqueName("ParityInfoArgs")) { c in
            try c.method("add:to:") { (this: RuntimeObject, x: Int32, y: Double) -> Double in
                log.append("original \(x) \(y)")
                return Double(x) + y
            }
        }
        let object = cls.new()
        let token = try object.hook("add:to:", .instead) { call in
            #expect(call.arguments.count == 2)
            let x = try call.argument(2, as: Int32.self)
            try call.setArgument(2, x * 10)
            try call.callOriginal()
            let first = try call.returnValue(as: Double.self)
            try call.setArgument(3, 0.25)
            try call.callOriginal()
            let second = try call.returnValue(as: Double.self)
            try call.setReturnValue(first + second)
        }
        #expect(try object.send("add:to:", Int32(2), 0.5) as Double == 20.5 + 20.25)
        #expect(log.all == ["original 20 0.5", "original 20 0.25"])
        token.cancel()
    }

    @Test("the info form on a method without a result: no return value, setting one is refused")
    func infoVoidMethod() throws {
        let log = EventLog()
        let object = try fooClass("ParityInfoVoid", tag: "A", log: log).new()
        let refused = Locked<Bool>(false)
        let token = try object.hook("foo", .after) { call in
            #expect(call.returnValue == nil)
            #expect(call.arguments.isEmpty)
            #expect(call.selector == "foo")
            do { try call.setReturnValue(Int32(1)) } catch { refused.withLock { $0 = true } }
            log.append("after")
        }
        try object.send("foo")
        #expect(log.all == ["A foo", "after"])
        #expect(refused.withLock { $0 })
        token.cancel()
    }

    @Test("the info form's receiver is the object, or the class object in a class-method hook")
    func infoReceiver() throws {
        let log = EventLog()
        let cls = try RuntimeClass.define(uniqueName("ParityInfoReceiver")) { c in
            try c.method("foo") { (this: RuntimeObject) in }
            try c.classMethod("make") { (this: RuntimeObject) -> Int32 in 3 }
        }
        let object = cls.new()
        let objectAddress = UInt(bitPattern: object.pointer)
        let classAddress = UInt(bitPattern: cls.pointer)
        let tokens = [
            try cls.hook("foo", .before) { call in
                log.append(UInt(bitPattern: call.receiver.pointer) == objectAddress ? "object" : "wrong")
            },
            try cls.metaclass.hook("make", .before) { call in
                log.append(call.receiver.asClass?.pointer == cls.pointer ? "class" : "wrong")
                log.append(
                    UInt(bitPattern: call.receiver.pointer) == classAddress ? "class address" : "wrong")
            },
        ]
        try object.send("foo")
        #expect(try cls.send("make") as Int32 == 3)
        #expect(log.all == ["object", "class", "class address"])
        for token in tokens { token.cancel() }
    }

    // MARK: dealloc (Aspects testDeallocHooking, SwiftHook testDeallocForAllInstancesOCObject)

    @Test("before dealloc the object still answers messages; an object made before a class hook runs it too")
    func beforeDeallocObjectUsable() throws {
        let log = EventLog()
        let cls = try RuntimeClass.define(uniqueName("ParityDeallocUse")) { c in
            try c.method("value") { (this: RuntimeObject) -> Int32 in 5 }
            try c.dealloc { _ in log.append("dealloc") }
        }
        var early: RuntimeObject? = cls.new()
        let classHook = try cls.hookDeallocBefore { this in
            log.append("class sees \((try? this.send("value") as Int32) ?? -1)")
        }
        do {
            let object = cls.new()
            try object.hook("dealloc", .before) { call in
                log.append("info sees \((try? call.receiver.send("value") as Int32) ?? -1)")
            }
        }
        #expect(log.all == ["info sees 5", "class sees 5", "dealloc"])
        early = nil
        _ = early
        #expect(log.all.suffix(2) == ["class sees 5", "dealloc"])
        classHook.cancel()
    }

    @Test("a token of an object's hook reports nothing to remove once the object is gone")
    func tokenAfterObjectDied() throws {
        let cls = try RuntimeClass.define(uniqueName("ParityDeadToken")) { c in
            try c.method("foo") { (this: RuntimeObject) in }
        }
        var token: HookToken?
        do {
            let object = cls.new()
            token = try object.hookBefore("foo") {}
            #expect(token?.isActive == true)
        }
        #expect(token?.isActive == false)
        #expect(token?.cancel() == nil)
    }

    // MARK: Refusals (Aspects testInvalidSelectorHooking, testHookReleaseIsNotAllowed, the blacklist)

    @Test("selectors the runtime relies on are refused, per object and class-wide, and leave no trace")
    func blacklist() throws {
        let cls = try RuntimeClass.define(uniqueName("ParityBlacklist")) { c in
            try c.method("foo") { (this: RuntimeObject) in }
        }
        let object = cls.new()
        for name in [
            "retain", "release", "forwardInvocation:", "class", "respondsToSelector:",
            "methodSignatureForSelector:",
        ] {
            let selector = Selector(name)
            #expect(throws: InterceptionError.forbiddenSelector(className: cls.name, selector: selector)) {
                try object.hook(selector, .before) { _ in }
            }
            #expect(throws: InterceptionError.forbiddenSelector(className: cls.name, selector: selector)) {
                try cls.hook(selector, .after) { _ in }
            }
        }
        #expect(object.actualClass == cls)
        #expect(object.hooks.isEmpty && cls.hooks.isEmpty)
        try object.send("foo")
    }

    @Test("a selector nobody implements is refused for an object and for a class, whatever the closure form")
    func missingSelector() throws {
        let cls = try plainClass("ParityMissing")
        let object = cls.new()
        #expect(
            throws: InterceptionError.selectorNotImplemented(className: cls.name, selector: "fakeSelector")
        ) {
            try object.hook("fakeSelector", .before) { _ in }
        }
        #expect(
            throws: InterceptionError.selectorNotImplemented(className: cls.name, selector: "fakeSelector2")
        ) {
            try cls.hookAfter("fakeSelector2") {}
        }
        #expect(object.actualClass == cls)
    }

    // MARK: Threads

    @Test("cancel from another thread returns only after a running call of the hook finished")
    func cancelWaitsForRunningCall() throws {
        let log = EventLog()
        let object = try fooClass("ParityCancelWaits", tag: "A", log: log).new()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let token = try object.hookBefore("foo") {
            log.append("hook start")
            entered.signal()
            release.wait()
            usleep(50_000)
            log.append("hook end")
        }
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? object.send("foo")
            done.signal()
        }
        entered.wait()
        release.signal()
        _ = token.cancel()
        log.append("cancelled")
        #expect(log.all.prefix(2) == ["hook start", "hook end"])
        #expect(log.all.contains("cancelled"))
        #expect(log.all.firstIndex(of: "cancelled")! > log.all.firstIndex(of: "hook end")!)
        done.wait()
    }

    @Test("hooks added from many threads at once to one class and one object all run")
    func concurrentAdds() throws {
        let log = EventLog()
        let cls = try fooClass("ParityConcurrentAdd", tag: "A", log: log)
        let object = cls.new()
        let tokens = Locked<[HookToken]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { i in
            let token: HookToken? =
                i.isMultiple(of: 2)
                ? try? cls.hookBefore("foo") { log.append("class") }
                : try? object.hookBefore("foo") { log.append("object") }
            if let token { tokens.withLock { $0.append(token) } }
        }
        #expect(tokens.withLock { $0.count } == 16)
        try object.send("foo")
        #expect(
            log.all == Array(repeating: "object", count: 8) + Array(repeating: "class", count: 8) + ["A foo"])
        for token in tokens.withLock({ $0 }) { token.cancel() }
        #expect(object.actualClass == cls)
    }

    // MARK: Another receiver for the original (SwiftHook MethodObjectAndSelectorTest)

    @Test("an info-form instead hook may run the original on another receiver")
    func insteadOriginalOnAnotherReceiver() throws {
        let cls = try RuntimeClass.define(uniqueName("ParityOtherReceiver")) { c in
            try c.property("number", Int.self)
        }
        let object = cls.new()
        let other = cls.new()
        try object.setValue(1, forKey: "number")
        try other.setValue(2, forKey: "number")
        let token = try cls.hook("number", .instead) { call in
            try call.setArgument(0, other as RuntimeObject?)
            try call.callOriginal()
        }
        #expect(try object.send("number") as Int == 2)
        token.cancel()
        #expect(try object.send("number") as Int == 1)
    }

    // MARK: Lifetimes (SwiftHook MemoryTests, HookDeallocAfterDelegateTests)

    @Test("a hook keeps neither its object nor, once cancelled, what its closure captured alive")
    func lifetimes() throws {
        let log = EventLog()
        let cls = try RuntimeClass.define(uniqueName("ParityLifetime")) { c in
            try c.method("foo") { (this: RuntimeObject) in }
            try c.dealloc { _ in log.append("dealloc") }
        }
        let captured = try plainClass("ParityCaptured")
        // A per-object hook: the object dies when its last reference goes; what the closure
        // captured goes with it.
        do {
            let object = cls.new()
            let payload = captured.new()
            try object.hookBefore("foo") { _ = payload }
            try object.send("foo")
        }
        Runtime.quiesceInterception()
        #expect(log.all == ["dealloc"])
        #expect(captured.liveInstanceCount == 0)
        // A class-wide hook: instances die as usual; the capture goes when the hook is cancelled.
        let token: HookToken
        do {
            let payload = captured.new()
            token = try cls.hookAfter("foo") { _ = payload }
        }
        do { try cls.new().send("foo") }
        #expect(log.all == ["dealloc", "dealloc"])
        #expect(captured.liveInstanceCount == 1)
        token.cancel()
        Runtime.quiesceInterception()
        #expect(captured.liveInstanceCount == 0)
    }

    // MARK: Property observation alongside hooks (Aspects testKVOCoexistance, SwiftHook CompatibilityTests)

    @Test(
        "a setter with an instead hook and a property observer: hook, original, then the observer; removed in either order, the object ends in its class"
    )
    func hooksAndPropertyObservation() throws {
        for hookFirst in [true, false] {
            for cancelHookFirst in [true, false] {
                let cls = try RuntimeClass.define(uniqueName("ParityKVO")) { c in
                    try c.property("string", Int.self)
                }
                let object = cls.new()
                let log = EventLog()
                var token: HookToken?
                var subscription: (any Disposable)?
                func hook() throws {
                    token = try object.hookInstead("setString:") {
                        (original: (Int) -> Void, this: RuntimeObject, value: Int) in
                        log.append("1")
                        original(value)
                        log.append("2")
                    }
                }
                func observe() {
                    subscription = object.rx.observe(Int.self, "string", options: [.new]).subscribe(onNext: {
                        log.append("3 \($0.map(String.init) ?? "nil")")
                    })
                }
                if hookFirst {
                    try hook()
                    observe()
                } else {
                    observe()
                    try hook()
                }
                try object.send("setString:", 9)
                // SwiftHook's testBeforeKVO: [1, 2, 3], the observer after the hooked setter.
                #expect(log.all == ["1", "2", "3 9"])
                if cancelHookFirst {
                    #expect(token?.cancel()?.restored == false)
                    try object.send("setString:", 10)
                    #expect(log.all.suffix(1) == ["3 10"])
                    subscription?.dispose()
                } else {
                    subscription?.dispose()
                    try object.send("setString:", 10)
                    #expect(log.all.suffix(2) == ["1", "2"])
                    #expect(token?.cancel()?.restored == true)
                }
                try object.send("setString:", 11)
                #expect(log.all.count == (cancelHookFirst ? 4 : 5))
                #expect(try object.send("string") as Int == 11)
                #expect(
                    object.actualClass == cls, "hook first \(hookFirst), cancel hook first \(cancelHookFirst)"
                )
            }
        }
    }

    // MARK: The interception subclass, dealloc on class hierarchies, one-shot under threads, changes during a call

    @Test(
        "the object's interception subclass cannot be hooked class-wide (SwiftHook allows it): a thrown error naming it"
    )
    func interceptionSubclassHookedClassWide() throws {
        let log = EventLog()
        let a = try fooClass("ParityDynamicA", tag: "A", log: log)
        let b = try overridingSubclass("ParityDynamicB", tag: "B", of: a, log: log)
        let object = b.new()
        var tokens = [try object.hookBefore("foo") { log.append("object") }]
        let dynamic = object.actualClass
        #expect(dynamic != b)
        let refusal = try #require(throws: InterceptionError.self) {
            try dynamic.hookBefore("foo") { log.append("dynamic") }
        }
        #expect("\(refusal)".contains("is an interception subclass (hook its original class)"))
        #expect(refusal.className == dynamic.name)
        tokens.append(try b.hookBefore("foo") { log.append("B") })
        tokens.append(try a.hookBefore("foo") { log.append("A") })
        try object.send("foo")
        #expect(log.all == ["object", "B", "B foo", "A", "A foo"])
        for token in tokens { token.cancel() }
        #expect(object.actualClass == b)
    }

    @Test("dealloc hooked class-wide on a superclass and a subclass: a subclass instance runs both once")
    func deallocSuperclassAndSubclass() throws {
        let log = EventLog()
        let a = try RuntimeClass.define(uniqueName("ParityDeallocA")) { c in
            try c.dealloc { _ in log.append("A dealloc") }
        }
        let b = try RuntimeClass.define(uniqueName("ParityDeallocB"), superclass: a) { c in
            try c.dealloc { _ in log.append("B dealloc") }
        }
        let c = try plainClass("ParityDeallocC", superclass: b)
        let tokens = [
            try a.hookDeallocBefore { _ in log.append("A before") },
            try b.hookDeallocBefore { _ in log.append("B before") },
            try c.hookDeallocBefore { _ in log.append("C before") },
            try a.hookDeallocAfter { _, _ in log.append("A after") },
            try c.hookDeallocAfter { _, _ in log.append("C after") },
        ]
        do { _ = c.new() }
        #expect(
            log.all == ["C before", "B before", "B dealloc", "A before", "A dealloc", "A after", "C after"])
        do { _ = a.new() }
        #expect(log.all.suffix(3) == ["A before", "A dealloc", "A after"])
        for token in tokens { token.cancel() }
    }

    @Test("a one-shot hook called from many threads at once runs exactly once")
    func oneShotConcurrent() throws {
        let log = EventLog()
        let cls = try fooClass("ParityOneShotThreads", tag: "A", log: log)
        let object = cls.new()
        let count = Atomic<Int>(0)
        let token = try object.hookBefore("value", oneShot: true) { count.add(1, ordering: .relaxed) }
        let classCount = Atomic<Int>(0)
        let classToken = try cls.hookAfter("value", oneShot: true) { classCount.add(1, ordering: .relaxed) }
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<50 { _ = try? object.send("value") as Int32 }
        }
        #expect(count.load(ordering: .relaxed) == 1)
        #expect(classCount.load(ordering: .relaxed) == 1)
        #expect(!token.isActive && !classToken.isActive)
        Runtime.quiesceInterception()
        #expect(object.actualClass == cls)
    }

    @Test(
        "removeAllHooks from inside a hook: the hooks after it do not run, the call completes, the object is restored"
    )
    func removeAllInsideHook() throws {
        let log = EventLog()
        let cls = try fooClass("ParityRemoveAllInside", tag: "A", log: log)
        let object = cls.new()
        try object.hookBefore("foo") { this in
            log.append("first")
            log.append("removed \(this.removeAllHooks())")
        }
        try object.hookBefore("foo") { log.append("second") }
        try object.hookAfter("foo") { log.append("after") }
        try object.send("foo")
        try object.send("foo")
        #expect(log.all == ["first", "removed 3", "A foo", "A foo"])
        #expect(object.actualClass == cls)
    }

    @Test("a method added to the class after an object was hooked can be hooked on that object")
    func methodAddedAfterObjectHooked() throws {
        let log = EventLog()
        let cls = try fooClass("ParityLateMethod", tag: "A", log: log)
        let object = cls.new()
        let first = try object.hookBefore("foo") { log.append("foo hook") }
        let late: @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32 = { _, _ in 9 }
        #expect(
            ic_class_add_method(
                cls.pointer, Selector("late").pointer, unsafeBitCast(late, to: ic_imp.self), "i@:")
                == IC_OK)
        #expect(try object.send("late") as Int32 == 9)
        let second = try object.hookAfter("late") { (result: Int32, this: RuntimeObject) in result + 1 }
        #expect(try object.send("late") as Int32 == 10)
        first.cancel()
        second.cancel()
        #expect(object.actualClass == cls)
    }

    @Test(
        "a class before hook's replaced argument reaches the method and the class's after hooks, not the object's layer outside it"
    )
    func infoAfterSeesReplacements() throws {
        let cls = try RuntimeClass.define(uniqueName("ParityInfoAfter")) { c in
            try c.method("twice:") { (this: RuntimeObject, x: Int) -> Int in x * 2 }
        }
        let object = cls.new()
        let seen = Locked<[String]>([])
        let tokens = [
            try cls.hook("twice:", .before) { call in
                try call.setArgument(2, try call.argument(2, as: Int.self) + 1)
            },
            try cls.hook("twice:", .after) { call in
                seen.withLock {
                    $0.append("class \(call.arguments) \(call.returnValue.map { "\($0)" } ?? "nil")")
                }
            },
            try object.hook("twice:", .after) { call in
                seen.withLock {
                    $0.append("object \(call.arguments) \(call.returnValue.map { "\($0)" } ?? "nil")")
                }
            },
        ]
        #expect(try object.send("twice:", 4) as Int == 10)
        #expect(seen.withLock { $0 } == ["class [5] 10", "object [4] 10"])
        for token in tokens { token.cancel() }
    }

    // MARK: SwiftHook ThreadSafetyTests

    @Test(
        "many threads hook one class, fresh subclasses, and objects that die hooked; tokens cancelled concurrently"
    )
    func threadSafetyScenarios() throws {
        let log = EventLog()
        let cls = try fooClass("ParityThreads", tag: "A", log: log)
        let originalFoo = try #require(cls.method(for: "foo")).implementationAddress
        // The same class from every thread.
        let classTokens = Locked<[HookToken]>([])
        DispatchQueue.concurrentPerform(iterations: 200) { _ in
            if let token = try? cls.hookBefore("foo", {}) { classTokens.withLock { $0.append(token) } }
        }
        #expect(classTokens.withLock { $0.count } == 200)
        // Fresh subclasses, each hooked and unhooked on its own thread.
        let failures = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 50) { _ in
            do {
                let sub = try plainClass("ParityThreadsSub", superclass: cls)
                let token = try sub.hookAfter("foo") {}
                if token.cancel()?.restored != true { failures.add(1, ordering: .relaxed) }
            } catch {
                failures.add(1, ordering: .relaxed)
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
        // Objects hooked (instead) on many threads, dying with their hooks.
        let objectTokens = Locked<[HookToken]>([])
        DispatchQueue.concurrentPerform(iterations: 200) { _ in
            let object = cls.new()
            if let token = try? object.hookInstead("foo", { (original: () -> Void, this: RuntimeObject) in })
            {
                objectTokens.withLock { $0.append(token) }
            }
        }
        #expect(objectTokens.withLock { $0.count } == 200)
        #expect(objectTokens.withLock { $0 }.allSatisfy { !$0.isActive })
        // Live objects with hooks of every position and after-dealloc hooks, cancelled concurrently
        // with the class's.
        let objects = (0..<100).map { _ in cls.new() }
        var tokens = classTokens.withLock { $0 }
        for (i, object) in objects.enumerated() {
            switch i % 4 {
            case 0: tokens.append(try object.hookBefore("foo") {})
            case 1: tokens.append(try object.hookInstead("foo") {})
            case 2: tokens.append(try object.hookAfter("foo") {})
            default: tokens.append(try object.hookDeallocAfter { _, _ in })
            }
        }
        let all = tokens
        let removed = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: all.count) { index in
            if all[index].cancel() != nil { removed.add(1, ordering: .relaxed) }
        }
        #expect(removed.load(ordering: .relaxed) == all.count)
        #expect(objects.allSatisfy { $0.actualClass == cls })
        #expect(cls.method(for: "foo")?.implementationAddress == originalFoo)
        #expect(!cls.isHooked("foo"))
    }

    // MARK: SwiftHook StructTests, ParametersCheckingTests

    @Test("struct arguments and results through typed and info hooks, per object and class-wide")
    func structs() throws {
        let cls = try RuntimeClass.define(uniqueName("ParityStruct")) { c in
            try c.method("move:by:") {
                (this: RuntimeObject, rect: ParityRect, by: ParityPoint) -> ParityRect in
                ParityRect(
                    origin: ParityPoint(x: rect.origin.x + by.x, y: rect.origin.y + by.y), width: rect.width,
                    height: rect.height)
            }
        }
        let object = cls.new()
        let rect = ParityRect(origin: ParityPoint(x: 1, y: 2), width: 3, height: 4)
        let seen = Locked<[String]>([])
        let tokens = [
            try cls.hookBeforeReplacingArguments("move:by:") {
                (this: RuntimeObject, rect: ParityRect, by: ParityPoint) in
                (rect, ParityPoint(x: by.x * 10, y: by.y * 10))
            },
            try object.hookInstead("move:by:") {
                (
                    original: (ParityRect, ParityPoint) -> ParityRect, this: RuntimeObject, rect: ParityRect,
                    by: ParityPoint
                )
                in
                var moved = original(rect, by)
                moved.width = 100
                return moved
            },
            try object.hook("move:by:", .after) { call in
                let result = try call.returnValue(as: ParityRect.self)
                let by = try call.argument(3, as: ParityPoint.self)
                seen.withLock { $0.append("\(result.origin.x) \(result.width) \(by.x)") }
                try call.setReturnValue(ParityRect(origin: result.origin, width: result.width, height: -1))
            },
        ]
        let moved: ParityRect = try object.send("move:by:", rect, ParityPoint(x: 1, y: 1))
        #expect(moved == ParityRect(origin: ParityPoint(x: 11, y: 12), width: 100, height: -1))
        #expect(seen.withLock { $0 } == ["11.0 100.0 1.0"])
        let mismatch = try #require(throws: InterceptionError.self) {
            try object.hookAfter("move:by:") { (this: RuntimeObject, rect: ParityPoint, by: Double) in }
        }
        #expect("\(mismatch)".hasPrefix("cannot add an after hook to -[\(cls.name) move:by:]: argument 1 is"))
        for token in tokens { token.cancel() }
        #expect(
            try object.send("move:by:", rect, ParityPoint(x: 1, y: 1)) as ParityRect
                == ParityRect(
                    origin: ParityPoint(x: 2, y: 3), width: 3, height: 4))
    }

    @Test("an instance method hooked as a class method, or a class method on an object, is not implemented")
    func classAndInstanceSelectorsApart() throws {
        let cls = try RuntimeClass.define(uniqueName("ParityApart")) { c in
            try c.method("instanceOnly") { (this: RuntimeObject) in }
            try c.classMethod("classOnly") { (this: RuntimeObject) in }
        }
        #expect(
            throws: InterceptionError.selectorNotImplemented(
                className: cls.name, selector: "instanceOnly", isClassMethod: true)
        ) {
            try cls.metaclass.hookAfter("instanceOnly") {}
        }
        #expect(throws: InterceptionError.selectorNotImplemented(className: cls.name, selector: "classOnly"))
        {
            try cls.new().hookInstead("classOnly") {}
        }
        #expect(throws: InterceptionError.selectorNotImplemented(className: cls.name, selector: "classOnly"))
        {
            try cls.hookBefore("classOnly") {}
        }
    }

    @Test("dealloc hooks of the wrong shape are refused: typed arguments, a result")
    func deallocShapes() throws {
        let cls = try plainClass("ParityDeallocShape")
        #expect(throws: InterceptionError.self) {
            try cls.hookBefore("dealloc") { (this: RuntimeObject, x: Int) in }
        }
        #expect(throws: InterceptionError.self) {
            try cls.hookInstead("dealloc") { (original: () -> Int, this: RuntimeObject) in 1 }
        }
        #expect(cls.hooks.isEmpty)
    }

    // MARK: Classes made or changed around hooks, init, forwarding, hooks from inside calls and dealloc

    @Test(
        "a class hook runs for a subclass defined after it, inheriting or calling super; not for one overriding without super"
    )
    func subclassDefinedAfterHook() throws {
        let log = EventLog()
        let a = try fooClass("ParityLaterA", tag: "A", log: log)
        let token = try a.hookBefore("foo") { log.append("hook") }
        let inheriting = try plainClass("ParityLaterInherit", superclass: a)
        let callingSuper = try overridingSubclass("ParityLaterSuper", tag: "B", of: a, log: log)
        let replacing = try RuntimeClass.define(uniqueName("ParityLaterReplace"), superclass: a) { c in
            try c.method("foo") { (this: RuntimeObject) in log.append("C foo") }
        }
        try inheriting.new().send("foo")
        try callingSuper.new().send("foo")
        try replacing.new().send("foo")
        #expect(log.all == ["hook", "A foo", "B foo", "hook", "A foo", "C foo"])
        #expect(token.cancel()?.restored == true)
    }

    @Test(
        "cancelling one method's class hook restores that method while another method of the class stays hooked"
    )
    func restoredPerMethodForClasses() throws {
        let log = EventLog()
        let cls = try fooClass("ParityPerMethod", tag: "A", log: log)
        let foo = try cls.hookBefore("foo") {}
        let value = try cls.hookBefore("value") {}
        #expect(foo.cancel()?.restored == true)
        #expect(cls.isHooked("value") && !cls.isHooked("foo"))
        #expect(value.cancel()?.restored == true)
        // An object is restored only when nothing is left on it.
        let object = cls.new()
        let objectFoo = try object.hookBefore("foo") {}
        let objectValue = try object.hookBefore("value") {}
        #expect(objectFoo.cancel()?.restored == false)
        #expect(objectValue.cancel()?.restored == true)
    }

    @Test("init hooked class-wide runs when init is sent (new does not send it, as documented)")
    func initHook() throws {
        let log = EventLog()
        let cls = try fooClass("ParityInit", tag: "A", log: log)
        let token = try cls.hookAfter("init") { log.append("init") }
        let object = cls.new()
        #expect(log.all.isEmpty)
        let initialized: RuntimeObject? = try object.send("init")
        #expect(initialized == object)
        #expect(log.all == ["init"])
        #expect(token.cancel()?.restored == true)
    }

    @Test(
        "an object hooked first on an inherited method, then its class and superclass hooked: every layer runs"
    )
    func objectFirstThenClassesOnInheritedMethod() throws {
        let log = EventLog()
        let a = try fooClass("ParityObjFirstA", tag: "A", log: log)
        let b = try plainClass("ParityObjFirstB", superclass: a)
        let object = b.new()
        let other = b.new()
        let objectHook = try object.hookInstead("foo") { (original: () -> Void, this: RuntimeObject) in
            log.append("object instead")
            original()
        }
        let subHook = try b.hookBefore("foo") { log.append("B before") }
        let superHook = try a.hookBefore("foo") { log.append("A before") }
        try object.send("foo")
        #expect(log.all == ["object instead", "B before", "A before", "A foo"])
        try other.send("foo")
        #expect(log.all.suffix(3) == ["B before", "A before", "A foo"])
        #expect(subHook.cancel()?.restored == true)
        try object.send("foo")
        #expect(log.all.suffix(3) == ["object instead", "A before", "A foo"])
        #expect(superHook.cancel()?.restored == true)
        try object.send("foo")
        #expect(log.all.suffix(2) == ["object instead", "A foo"])
        #expect(objectHook.cancel()?.restored == true)
        #expect(object.actualClass == b)
    }

    @Test(
        "an object's layer runs its class's method as it is now: class hooks added and removed after the object was hooked"
    )
    func objectLayerFollowsClassChanges() throws {
        let log = EventLog()
        let a = try fooClass("ParityFollowA", tag: "A", log: log)
        let object = a.new()
        let objectHook = try object.hookAfter("foo") { log.append("object after") }
        for round in 0..<2 {
            let classHook = try a.hookInstead("foo") { (original: () -> Void, this: RuntimeObject) in
                log.append("class instead \(round)")
            }
            try object.send("foo")
            #expect(log.all.suffix(2) == ["class instead \(round)", "object after"])
            classHook.cancel()
            try object.send("foo")
            #expect(log.all.suffix(2) == ["A foo", "object after"])
        }
        objectHook.cancel()
    }

    @Test(
        "arguments past the registers (7 integers, 9 doubles, mixed): before, instead and after, per object and class-wide"
    )
    func stackArguments() throws {
        let cls = try RuntimeClass.define(uniqueName("ParityStack")) { c in
            try c.method("sum:::::::::::::::") {
                (
                    this: RuntimeObject, a: Int, b: Double, c: Int, d: Double, e: Int, f: Double, g: Int,
                    h: Double,
                    i: Int, j: Double, k: Int, l: Double, m: Int, n: Double, o: Double, p: Int32
                ) -> Double in
                Double(a + c + e + g + i + k + m) + b + d + f + h + j + l + n + o + Double(p) * 1000
            }
        }
        let sel: Selector = "sum:::::::::::::::"
        for perObject in [true, false] {
            let object = cls.new()
            let target: any HookTarget = perObject ? object : cls
            let seen = Locked<[String]>([])
            let tokens = [
                try target.hook(sel, .before) { call in
                    seen.withLock {
                        $0.append("before \(call.arguments.count) \(try! call.argument(17, as: Int32.self))")
                    }
                    try call.setArgument(17, Int32(2))
                },
                try target.hookInstead(sel) {
                    (
                        original: (
                            Int, Double, Int, Double, Int, Double, Int, Double, Int, Double, Int, Double, Int,
                            Double, Double, Int32
                        ) -> Double,
                        this: RuntimeObject, a: Int, b: Double, c: Int, d: Double, e: Int, f: Double, g: Int,
                        h: Double,
                        i: Int, j: Double, k: Int, l: Double, m: Int, n: Double, o: Double, p: Int32
                    ) -> Double in
                    original(a, b, c, d, e, f, g, h, i, j, k, l, m * 100, n, o + 0.5, p) + 0.25
                },
                try target.hookAfter(sel) {
                    (
                        result: Double, this: RuntimeObject, a: Int, b: Double, c: Int, d: Double, e: Int,
                        f: Double, g: Int, h: Double,
                        i: Int, j: Double, k: Int, l: Double, m: Int, n: Double, o: Double, p: Int32
                    ) -> Double in
                    seen.withLock { $0.append("after \(m) \(o) \(p)") }
                    return result
                },
            ]
            let r: Double = try object.send(
                sel, 1, 0.5, 2, 0.5, 3, 0.5, 4, 0.5, 5, 0.5, 6, 0.5, 7, 0.5, 8.0, Int32(1))
            // 1+...+6 + 700 = 721; seven halves = 3.5; o = 8.5; p = 2 -> 2000; + 0.25
            let expected: Double = 2733.25
            #expect(r == expected, "per object: \(perObject)")
            // The layer's after hooks see the arguments its instead hook passed to the original (as
            // in SwiftHook, whose after hooks run inside the instead hook's original).
            #expect(seen.withLock { $0 } == ["before 16 1", "after 700 8.5 2"], "per object: \(perObject)")
            for token in tokens { token.cancel() }
            let plain: Double = try object.send(
                sel, 1, 0.5, 2, 0.5, 3, 0.5, 4, 0.5, 5, 0.5, 6, 0.5, 7, 0.5, 8.0, Int32(1))
            let unhooked: Double = 1039.5
            #expect(plain == unhooked)
        }
    }

    @Test("info-form misuse is a thrown error the hook can catch, or the handler gets; the call goes on")
    func infoMisuse() throws {
        let log = EventLog()
        let cls = try RuntimeClass.define(uniqueName("ParityInfoMisuse")) { c in
            try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in
                log.append("original \(x)")
                return x + 1
            }
        }
        let object = cls.new()
        let reported = Locked<[String]>([])
        let handler = HookErrorHandlers.add { error in
            if error.className == cls.name {
                reported.withLock { $0.append("\(error.selector.name) \(error.error is RuntimeError)") }
            }
        }
        defer { handler.cancel() }
        let tokens = [
            try object.hook("add:", .before) { call in
                do { try call.callOriginal() } catch { log.append("before: no original") }
                do { _ = try call.returnValue(as: Int32.self) } catch { log.append("before: no result") }
                do { _ = try call.argument(3, as: Int32.self) } catch { log.append("before: no argument 3") }
                do { _ = try call.argument(2, as: Double.self) } catch { log.append("before: not a double") }
                #expect(call.returnValue == nil)
            },
            try object.hook("add:", .after) { call in
                do { try call.callOriginal() } catch { log.append("after: no original") }
                _ = try call.argument(2, as: Int64.self)  // thrown out of the hook: the handler gets it
                log.append("unreachable")
            },
        ]
        #expect(try object.send("add:", Int32(1)) as Int32 == 2)
        #expect(
            log.all == [
                "before: no original", "before: no result", "before: no argument 3", "before: not a double",
                "original 1", "after: no original",
            ])
        #expect(reported.withLock { $0 } == ["add: true"])
        for token in tokens { token.cancel() }
    }

    @Test(
        "the last hook's cancel is not restored while an rx subscription remains; the object returns when it goes"
    )
    func restoredWaitsForSubscriptions() throws {
        let log = EventLog()
        let cls = try fooClass("ParityRxRemains", tag: "A", log: log)
        let object = cls.new()
        let subscription = object.rx.sentMessage("foo").subscribe(onNext: { _ in log.append("rx") })
        let hook = try object.hookBefore("foo") { log.append("hook") }
        let deallocHook = try object.hookDeallocAfter { _, _ in }
        #expect(hook.cancel() == HookCancellation(restored: false, keptForeignImplementation: false))
        #expect(deallocHook.cancel()?.restored == false)
        try object.send("foo")
        #expect(log.all == ["rx", "A foo"])
        #expect(object.actualClass != cls)
        subscription.dispose()
        #expect(object.actualClass == cls)
        // An after-dealloc hook alone: cancelling it restores the object.
        let alone = try object.hookDeallocAfter { _, _ in }
        #expect(object.isHooked("dealloc"))
        #expect(alone.cancel()?.restored == true)
        #expect(object.actualClass == cls)
    }

    @Test(
        "Aspects' testEnsureForwardInvocationIsCalled: hooked objects and classes still forward what they do not implement"
    )
    func customForwardingSurvivesHooks() throws {
        let log = EventLog()
        let cls = try RuntimeClass.define(uniqueName("ParityForwarding")) { c in
            try c.method("test") { (this: RuntimeObject) in log.append("test") }
            try c.method("methodSignatureForSelector:") {
                (this: RuntimeObject, sel: Selector) -> UnsafeRawPointer? in
                if sel == "non_existing_selector" { return UnsafeRawPointer(ic_signature_parse("v@:")) }
                return try? this.sendSuper("methodSignatureForSelector:", sel)
            }
            try c.method("forwardInvocation:") { (this: RuntimeObject, invocation: OpaquePointer?) in
                log.append("forwarded")
            }
        }
        let object = cls.new()
        let classHook = try cls.hookInstead("test") { log.append("class instead") }
        try object.send("test")
        try object.send("non_existing_selector")
        let objectHook = try object.hookBefore("test") { log.append("object before") }
        try object.send("test")
        try object.send("non_existing_selector")
        #expect(
            log.all == ["class instead", "forwarded", "object before", "class instead", "forwarded"])
        #expect(classHook.cancel()?.restored == true)
        #expect(objectHook.cancel()?.restored == true)
        try object.send("test")
        try object.send("non_existing_selector")
        #expect(log.all.suffix(2) == ["test", "forwarded"])
    }

    @Test(
        "a class hook that hooks its receiver during the call: the object moves mid-call, its hook runs from the next call"
    )
    func classHookHooksItsReceiver() throws {
        let log = EventLog()
        let cls = try fooClass("ParityMoveMidCall", tag: "A", log: log)
        let object = cls.new()
        let added = Locked<[HookToken]>([])
        let classHook = try cls.hookBefore("foo", oneShot: true) { this in
            log.append("class")
            if let token = try? this.hookAfter("foo", { log.append("object after") }) {
                added.withLock { $0.append(token) }
            }
        }
        try object.send("foo")
        #expect(object.actualClass != cls)
        try object.send("foo")
        #expect(log.all == ["class", "A foo", "A foo", "object after"])
        #expect(!classHook.isActive)
        for token in added.withLock({ $0 }) { #expect(token.cancel()?.restored == true) }
        #expect(object.actualClass == cls)
    }

    @Test(
        "inside dealloc hooks: hooking the dying object is refused, its own token cancels, other objects can be hooked"
    )
    func hooksFromInsideDealloc() throws {
        let log = EventLog()
        let cls = try fooClass("ParityInsideDealloc", tag: "A", log: log)
        let survivor = cls.new()
        let survivorTokens = Locked<[HookToken]>([])
        let own = Locked<HookToken?>(nil)
        do {
            let object = cls.new()
            own.withLock {
                $0 = try? object.hookDeallocBefore { this in
                    do {
                        _ = try this.hookBefore("foo") {}
                        log.append("hooked the dying object")
                    } catch InterceptionError.objectDeallocating {
                        log.append("refused: deallocating")
                    } catch {
                        log.append("refused: \(error)")
                    }
                    let cancelled = own.withLock { $0 }?.cancel()
                    log.append("own cancel \(cancelled == nil ? "nil" : "removed")")
                    if let token = try? survivor.hookBefore("foo", { log.append("survivor hook") }) {
                        survivorTokens.withLock { $0.append(token) }
                    }
                }
            }
        }
        #expect(log.all == ["refused: deallocating", "own cancel removed"])
        try survivor.send("foo")
        #expect(log.all.suffix(2) == ["survivor hook", "A foo"])
        for token in survivorTokens.withLock({ $0 }) { #expect(token.cancel()?.restored == true) }
        #expect(survivor.actualClass == cls)
    }
}
