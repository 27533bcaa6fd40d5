import CInterception
@testable import Interception
import Testing

@Suite("Swift class-wide hooks: every instance of a class")
struct RuntimeClassHooksTests {
    @Test(
        "every instance, made before or after, and subclass instances run the class's hooks; cancelling restores the method"
    )
    func everyInstance() throws {
        let log = EventLog()
        let base = try RuntimeClass.define(uniqueName("SCHBase")) { c in
            try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in
                log.append("original \(x)")
                return x + 1
            }
        }
        let sub = try plainClass("SCHSub", superclass: base)
        let early = base.new()
        let token = try base.hookInstead("add:") {
            (original: (Int32) -> Int32, this: RuntimeObject, x: Int32) in
            original(x) * 100
        }
        let late = sub.new()
        #expect(try early.send("add:", Int32(1)) as Int32 == 200)
        #expect(try late.send("add:", Int32(2)) as Int32 == 300)
        #expect(early.actualClass == base)  // nobody moved
        token.cancel()
        #expect(try early.send("add:", Int32(1)) as Int32 == 2)
        #expect(log.all == ["original 1", "original 2", "original 1"])
    }

    @Test("an object's hooks and rx subscribers wrap its class's hooks")
    func objectLayerWrapsClassLayer() throws {
        let log = EventLog()
        let cls = try RuntimeClass.define(uniqueName("SCHLayers")) { c in
            try c.method("ping") { (this: RuntimeObject) in log.append("original") }
        }
        let obj = cls.new()
        let classBefore = try cls.hookBefore("ping") { (this: RuntimeObject) in log.append("class before") }
        let classAfter = try cls.hookAfter("ping") { (this: RuntimeObject) in log.append("class after") }
        let objectBefore = try obj.hookBefore("ping") { (this: RuntimeObject) in log.append("object before") }
        let subscription = obj.rx.methodInvoked("ping").subscribe(onNext: { _ in log.append("rx after") })
        try obj.send("ping")
        #expect(log.all == ["object before", "class before", "original", "class after", "rx after"])
        subscription.dispose()
        for token in [classBefore, classAfter, objectBefore] { token.cancel() }
        #expect(obj.actualClass == cls)
    }

    @Test("class hooks check their Swift types against the method and refuse what the engine refuses")
    func refusals() throws {
        let cls = try RuntimeClass.define(uniqueName("SCHRefuse")) { c in
            try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x }
        }
        let mismatch = try #require(throws: InterceptionError.self) {
            try cls.hookBefore("add:") { (this: RuntimeObject, x: Double) in }
        }
        #expect(mismatch.className == cls.name)
        #expect(throws: InterceptionError.self) { try cls.hookBefore("missing") { (this: RuntimeObject) in } }
        let forbidden = try #require(throws: InterceptionError.self) {
            try cls.hookBefore("release") { (this: RuntimeObject) in }
        }
        #expect(forbidden == .forbiddenSelector(className: cls.name, selector: "release"))
    }
}
