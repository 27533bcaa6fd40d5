import CInterception
@testable import Interception
import Testing

// Area: foreign changes under hooks (SPEC 16.3). Purpose: an exchange, a set IMP or a replaced
// method, on the hooked class or a subclass, made before or after the hook, then removal in both
// orders, never aborts; a moved hook runs the hooks of the method it was installed for, then that
// method's original, as a moved IMP would; the last removal leaves the foreign change as the user
// made it and says so; a foreign IMP on an interception subclass keeps running; interception
// subclass names never collide with a user's class.

/// The hook paths a class-wide hook can take: the typed class trampoline (`v@:B`) or the libffi
/// closure (`v@:qqqqq`, outside the generated table).
enum HookPath: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case typed, forwarded
    var testDescription: String { rawValue }
}

/// A class with `appear:` ("A"), `swizzled_appear:` ("B", which then sends `swizzled_appear:` to
/// reach the original, as a swizzling implementation does) and `foreign_appear:` ("X", the IMP
/// tests set where the engine put its own), all logging into `log`, with the path's signature.
/// `sub` inherits them (and with `subclassHasB`, has a `swizzled_appear:` of its own).
struct SwizzleFixture {
    let cls: RuntimeClass
    let sub: RuntimeClass
    let log = EventLog()
    let path: HookPath
    static let a: Selector = "appear:"
    static let b: Selector = "swizzled_appear:"
    static let x: Selector = "foreign_appear:"

    init(_ path: HookPath, subclassHasB: Bool = false) throws {
        self.path = path
        let log = self.log
        let b = Self.b
        switch path {
        case .typed:
            cls = try RuntimeClass.define(uniqueName("Swizzle")) { c in
                try c.method(Self.a) { (this: RuntimeObject, x: Bool) in log.append("A") }
                try c.method(Self.x) { (this: RuntimeObject, x: Bool) in log.append("X") }
                try c.method(b) { (this: RuntimeObject, x: Bool) in
                    log.append("B")
                    try? this.send(b, x)
                }
            }
        case .forwarded:
            cls = try RuntimeClass.define(uniqueName("SwizzleFwd")) { c in
                try c.method(Self.a) { (this: RuntimeObject, x: Int, y: Int, z: Int, u: Int, v: Int) in
                    log.append("A")
                }
                try c.method(Self.x) { (this: RuntimeObject, x: Int, y: Int, z: Int, u: Int, v: Int) in
                    log.append("X")
                }
                try c.method(b) { (this: RuntimeObject, x: Int, y: Int, z: Int, u: Int, v: Int) in
                    log.append("B")
                    try? this.send(b, x, y, z, u, v)
                }
            }
        }
        sub = try RuntimeClass.define(uniqueName("SwizzleSub"), superclass: cls) { c in
            guard subclassHasB else { return }
            switch path {
            case .typed:
                try c.method(b) { (this: RuntimeObject, x: Bool) in
                    log.append("B")
                    try? this.send(b, x)
                }
            case .forwarded:
                try c.method(b) { (this: RuntimeObject, x: Int, y: Int, z: Int, u: Int, v: Int) in
                    log.append("B")
                    try? this.send(b, x, y, z, u, v)
                }
            }
        }
    }

    /// Sends `appear:` to `object` and returns the log of the call.
    func call(_ object: RuntimeObject) throws -> [String] {
        let before = log.all.count
        switch path {
        case .typed: try object.send(Self.a, true)
        case .forwarded: try object.send(Self.a, 1, 2, 3, 4, 5)
        }
        return Array(log.all.dropFirst(before))
    }

    /// A before hook logging "hook", on `target`.
    func hook(_ target: some HookTarget) throws -> HookToken {
        let log = self.log
        return try target.hookBefore(Self.a) { log.append("hook") }
    }

    /// `cls`'s own method for `selector`.
    static func method(_ cls: RuntimeClass, _ selector: Selector) throws -> RuntimeMethod {
        try #require(cls.methods.first { $0.selector == selector })
    }

    /// The class's `appear:` and `swizzled_appear:`, and their IMPs' addresses now.
    func methods() throws -> (a: RuntimeMethod, b: RuntimeMethod, original: [UnsafeRawPointer]) {
        let a = try Self.method(cls, Self.a)
        let b = try Self.method(cls, Self.b)
        return (a, b, [a.implementationAddress, b.implementationAddress])
    }
}

@Suite("Foreign changes under hooks (SPEC 16.3)")
struct HookForeignChangeTests {
    @Test(
        "the issue's scenario: an exchange after a class-wide hook runs the hooked method's hooks, then its original"
    )
    func exchangeAfterClassHookIssueScenario() throws {
        let log = EventLog()
        let vc = try RuntimeClass.define(uniqueName("VC")) { c in
            try c.method("viewDidAppear:") { (this: RuntimeObject, a: Bool) in log.append("original \(a)") }
            try c.method("hook_viewDidAppear:") { (this: RuntimeObject, a: Bool) in
                log.append("swizzled \(a)")
                try? this.send("hook_viewDidAppear:", a)
            }
        }
        let token = try vc.hookBefore("viewDidAppear:") { (this: RuntimeObject, a: Bool) in
            log.append("hook \(a)")
        }
        #expect(
            ic_method_exchange_imps(
                ic_class_get_own_method(vc.pointer, Selector("viewDidAppear:").pointer),
                ic_class_get_own_method(vc.pointer, Selector("hook_viewDidAppear:").pointer)) == IC_OK)
        try vc.new().send("viewDidAppear:", true)
        #expect(log.all == ["swizzled true", "hook true", "original true"])
        #expect(token.cancel() == HookCancellation(restored: false, keptForeignImplementation: true))
    }

    @Test(
        "hook, exchange, unhook, exchange back: the exchange stays as made, then the class is as it was",
        arguments: HookPath.allCases)
    func exchangeAfterHookUnhookFirst(_ path: HookPath) throws {
        let f = try SwizzleFixture(path)
        let (a, b, original) = try f.methods()
        let obj = f.cls.new()
        let token = try f.hook(f.cls)
        try a.exchangeImplementation(with: b)
        #expect(try f.call(obj) == ["B", "hook", "A"])
        #expect(try f.call(f.sub.new()) == ["B", "hook", "A"])
        #expect(token.cancel() == HookCancellation(restored: false, keptForeignImplementation: true))
        #expect(try f.call(obj) == ["B", "A"])  // the user's exchange, without the hook
        #expect([b.implementationAddress, a.implementationAddress] == original)
        try a.exchangeImplementation(with: b)
        #expect(try f.call(obj) == ["A"])
        #expect([a.implementationAddress, b.implementationAddress] == original)
        #expect(!f.cls.isHooked(SwizzleFixture.a))
    }

    @Test(
        "hook, exchange, exchange back, unhook: the class gets its exact method back",
        arguments: HookPath.allCases)
    func exchangeAfterHookUndoFirst(_ path: HookPath) throws {
        let f = try SwizzleFixture(path)
        let (a, b, original) = try f.methods()
        let obj = f.cls.new()
        let token = try f.hook(f.cls)
        try a.exchangeImplementation(with: b)
        #expect(try f.call(obj) == ["B", "hook", "A"])
        try a.exchangeImplementation(with: b)
        #expect(try f.call(obj) == ["hook", "A"])
        #expect(token.cancel() == HookCancellation(restored: true, keptForeignImplementation: false))
        #expect(try f.call(obj) == ["A"])
        #expect(a.implementationAddress == original[0])
    }

    @Test(
        "exchange, hook, unhook, exchange back: the hook wraps the exchanged method",
        arguments: HookPath.allCases)
    func exchangeBeforeHook(_ path: HookPath) throws {
        let f = try SwizzleFixture(path)
        let (a, b, original) = try f.methods()
        let obj = f.cls.new()
        try a.exchangeImplementation(with: b)
        let token = try f.hook(f.cls)
        #expect(try f.call(obj) == ["hook", "B", "A"])
        #expect(token.cancel() == HookCancellation(restored: true, keptForeignImplementation: false))
        #expect(try f.call(obj) == ["B", "A"])
        try a.exchangeImplementation(with: b)
        #expect(try f.call(obj) == ["A"])
        #expect([a.implementationAddress, b.implementationAddress] == original)
    }

    @Test(
        "exchange, hook, exchange back, unhook: the moved hook gets the exchanged original back",
        arguments: HookPath.allCases)
    func exchangeBeforeHookUndoFirst(_ path: HookPath) throws {
        let f = try SwizzleFixture(path)
        let (a, b, original) = try f.methods()
        let obj = f.cls.new()
        try a.exchangeImplementation(with: b)
        let token = try f.hook(f.cls)
        try a.exchangeImplementation(with: b)
        #expect(try f.call(obj) == ["A"])
        #expect(token.cancel() == HookCancellation(restored: false, keptForeignImplementation: true))
        #expect(try f.call(obj) == ["A"])
        #expect([a.implementationAddress, b.implementationAddress] == original)
    }

    @Test(
        "an exchange with a subclass's method after a class hook: the subclass's instances run the hook, removal restores",
        arguments: HookPath.allCases)
    func exchangeWithSubclassMethod(_ path: HookPath) throws {
        let f = try SwizzleFixture(path, subclassHasB: true)
        let a = try SwizzleFixture.method(f.cls, SwizzleFixture.a)
        let subB = try SwizzleFixture.method(f.sub, SwizzleFixture.b)
        let (originalA, originalSubB) = (a.implementationAddress, subB.implementationAddress)
        let child = f.sub.new()
        let token = try f.hook(f.cls)
        try a.exchangeImplementation(with: subB)
        #expect(try f.call(child) == ["B", "hook", "A"])
        #expect(token.cancel() == HookCancellation(restored: false, keptForeignImplementation: true))
        #expect(try f.call(child) == ["B", "A"])
        try a.exchangeImplementation(with: subB)
        #expect(try f.call(child) == ["A"])
        #expect(a.implementationAddress == originalA && subB.implementationAddress == originalSubB)
    }

    @Test(
        "a subclass hook (an added override) exchanged with the subclass's own method",
        arguments: HookPath.allCases)
    func exchangeOfAddedOverride(_ path: HookPath) throws {
        let f = try SwizzleFixture(path, subclassHasB: true)
        let child = f.sub.new()
        let token = try f.hook(f.sub)
        let override = try SwizzleFixture.method(f.sub, SwizzleFixture.a)
        let subB = try SwizzleFixture.method(f.sub, SwizzleFixture.b)
        try override.exchangeImplementation(with: subB)
        #expect(try f.call(child) == ["B", "hook", "A"])
        #expect(try f.call(f.cls.new()) == ["A"])  // the superclass is untouched
        #expect(token.cancel() == HookCancellation(restored: false, keptForeignImplementation: true))
        #expect(try f.call(child) == ["B", "A"])
        try override.exchangeImplementation(with: subB)
        #expect(try f.call(child) == ["A"])
    }

    @Test(
        "an IMP set over a class hook runs instead of it and is kept at removal; one copied from it runs the hook",
        arguments: HookPath.allCases)
    func setIMPOverAndFromClassHook(_ path: HookPath) throws {
        let f = try SwizzleFixture(path)
        let (a, b, original) = try f.methods()
        let (impA, impB) = (a.implementation, b.implementation)
        let originalA = original[0]
        let obj = f.cls.new()
        // A copy of the hooked IMP under another selector runs the hook, then A's original.
        var token = try f.hook(f.cls)
        try b.setImplementation(a.implementation)
        #expect(try f.call(obj) == ["hook", "A"])
        switch path {
        case .typed: try obj.send(SwizzleFixture.b, true)
        case .forwarded: try obj.send(SwizzleFixture.b, 1, 2, 3, 4, 5)
        }
        #expect(f.log.all.suffix(2) == ["hook", "A"])
        #expect(token.cancel() == HookCancellation(restored: false, keptForeignImplementation: true))
        #expect(a.implementationAddress == originalA)
        #expect(b.implementationAddress == originalA)  // the copy is A's original now, not the hook
        try b.setImplementation(impB)
        // An IMP set over the hook replaces it; the removal keeps it.
        token = try f.hook(f.cls)
        let foreign = try SwizzleFixture.method(f.cls, SwizzleFixture.x).implementation
        try a.setImplementation(foreign)
        #expect(try f.call(obj) == ["X"])
        #expect(token.cancel() == HookCancellation(restored: false, keptForeignImplementation: true))
        #expect(a.implementationAddress == unsafeBitCast(foreign, to: UnsafeRawPointer.self))
        #expect(try f.call(obj) == ["X"])
        try a.setImplementation(impA)
        #expect(try f.call(obj) == ["A"])
    }

    @Test(
        "a method replaced in a subclass after a class hook calls super through the hook",
        arguments: HookPath.allCases)
    func replaceMethodInSubclass(_ path: HookPath) throws {
        let f = try SwizzleFixture(path)
        let log = f.log
        let token = try f.hook(f.cls)
        switch path {
        case .typed:
            try f.sub.replaceMethod(SwizzleFixture.a) { (this: RuntimeObject, x: Bool) in
                log.append("sub")
                try? this.sendSuper(SwizzleFixture.a, x)
            }
        case .forwarded:
            try f.sub.replaceMethod(SwizzleFixture.a) {
                (this: RuntimeObject, x: Int, y: Int, z: Int, u: Int, v: Int) in
                log.append("sub")
                try? this.sendSuper(SwizzleFixture.a, x, y, z, u, v)
            }
        }
        #expect(try f.call(f.sub.new()) == ["sub", "hook", "A"])
        #expect(token.cancel() == HookCancellation(restored: true, keptForeignImplementation: false))
        #expect(try f.call(f.sub.new()) == ["sub", "A"])
    }

    @Test(
        "an object hook under a class exchange: the object's layer wraps the exchanged method",
        arguments: HookPath.allCases)
    func objectHookUnderExchange(_ path: HookPath) throws {
        let f = try SwizzleFixture(path)
        let a = try SwizzleFixture.method(f.cls, SwizzleFixture.a)
        let b = try SwizzleFixture.method(f.cls, SwizzleFixture.b)
        let obj = f.cls.new()
        let token = try f.hook(obj)
        try a.exchangeImplementation(with: b)
        #expect(try f.call(obj) == ["hook", "B", "A"])
        #expect(token.cancel() == HookCancellation(restored: true, keptForeignImplementation: false))
        #expect(obj.actualClass == f.cls)
        try a.exchangeImplementation(with: b)
        #expect(try f.call(obj) == ["A"])
    }

    @Test(
        "class methods: an exchange after a metaclass hook runs the hook for the class and a subclass, both removal orders",
        arguments: HookPath.allCases)
    func classMethodExchange(_ path: HookPath) throws {
        let log = EventLog()
        let (a, b) = (SwizzleFixture.a, SwizzleFixture.b)
        let cls = try RuntimeClass.define(uniqueName("SwizzleMeta")) { c in
            switch path {
            case .typed:
                try c.classMethod(a) { (this: RuntimeObject, x: Bool) in log.append("A") }
                try c.classMethod(b) { (this: RuntimeObject, x: Bool) in
                    log.append("B")
                    try? this.send(b, x)
                }
            case .forwarded:
                try c.classMethod(a) { (this: RuntimeObject, x: Int, y: Int, z: Int, u: Int, v: Int) in
                    log.append("A")
                }
                try c.classMethod(b) { (this: RuntimeObject, x: Int, y: Int, z: Int, u: Int, v: Int) in
                    log.append("B")
                    try? this.send(b, x, y, z, u, v)
                }
            }
        }
        let sub = try RuntimeClass.define(uniqueName("SwizzleMetaSub"), superclass: cls) { _ in }
        func call(_ target: RuntimeClass) throws -> [String] {
            let before = log.all.count
            switch path {
            case .typed: try target.send(a, true)
            case .forwarded: try target.send(a, 1, 2, 3, 4, 5)
            }
            return Array(log.all.dropFirst(before))
        }
        let methodA = try SwizzleFixture.method(cls.metaclass, a)
        let methodB = try SwizzleFixture.method(cls.metaclass, b)
        let original = [methodA.implementationAddress, methodB.implementationAddress]
        for unhookFirst in [true, false] {
            let token = try cls.metaclass.hookBefore(a) { log.append("hook") }
            try methodA.exchangeImplementation(with: methodB)
            #expect(try call(cls) == ["B", "hook", "A"])
            #expect(try call(sub) == ["B", "hook", "A"])
            if unhookFirst {
                #expect(token.cancel() == HookCancellation(restored: false, keptForeignImplementation: true))
                #expect(try call(cls) == ["B", "A"])
                try methodA.exchangeImplementation(with: methodB)
            } else {
                try methodA.exchangeImplementation(with: methodB)
                #expect(try call(sub) == ["hook", "A"])
                #expect(token.cancel() == HookCancellation(restored: true, keptForeignImplementation: false))
            }
            #expect(try call(cls) == ["A"])
            #expect([methodA.implementationAddress, methodB.implementationAddress] == original)
            #expect(!cls.metaclass.isHooked(a))
        }
    }

    @Test(
        "a foreign IMP set on the interception subclass keeps working when the hooks go, and the removal says so",
        arguments: HookPath.allCases)
    func foreignIMPOnInterceptionSubclass(_ path: HookPath) throws {
        let f = try SwizzleFixture(path)
        let obj = f.cls.new()
        let log = f.log
        let token: HookToken
        switch path {
        case .typed:
            token = try obj.hookInstead(SwizzleFixture.a) {
                (original: (Bool) -> Void, this: RuntimeObject, x: Bool) in
                log.append("instead")
                original(x)
            }
        case .forwarded:
            token = try obj.hook(SwizzleFixture.a, .instead) { call in
                log.append("instead")
                try call.callOriginal()
            }
        }
        #expect(try f.call(obj) == ["instead", "A"])
        let interceptionSubclass = obj.actualClass
        #expect(interceptionSubclass != f.cls)
        let hooked = try SwizzleFixture.method(interceptionSubclass, SwizzleFixture.a)
        let engineIMP = hooked.implementation
        let foreign = try SwizzleFixture.method(f.cls, SwizzleFixture.x).implementation
        _ = ic_method_set_imp(hooked.pointer, foreign)
        #expect(try f.call(obj) == ["X"])
        #expect(token.cancel() == HookCancellation(restored: false, keptForeignImplementation: true))
        #expect(obj.actualClass == interceptionSubclass)  // kept, so the foreign IMP keeps running
        #expect(try f.call(obj) == ["X"])
        // Give the engine its IMP back: the next removal moves the object home.
        _ = ic_method_set_imp(hooked.pointer, engineIMP)
        #expect(try f.call(obj) == ["A"])
        let again = try f.hook(obj)
        #expect(try f.call(obj) == ["hook", "A"])
        #expect(again.cancel() == HookCancellation(restored: true, keptForeignImplementation: false))
        #expect(obj.actualClass == f.cls)
    }

    @Test("a user class named like an interception subclass: the engine takes the next free name")
    func nameCollision() throws {
        let name = uniqueName("Foo")
        let cls = try RuntimeClass.define(name) { c in
            try c.method("ping") { (this: RuntimeObject) in }
        }
        let squatter = try RuntimeClass.define("_ICIntercepted_" + name) { _ in }
        let obj = cls.new()
        let log = EventLog()
        let token = try obj.hookBefore("ping") { log.append("hook") }
        try obj.send("ping")
        #expect(log.all == ["hook"])
        #expect(obj.actualClass != squatter)
        #expect(obj.actualClass.name == "_ICIntercepted_\(name)_1")
        #expect(obj.runtimeClass == cls)
        #expect(token.cancel()?.restored == true)
    }
}
