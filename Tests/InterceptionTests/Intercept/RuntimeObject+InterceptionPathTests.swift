import CInterception
import Interception
import Testing

@Suite("Interception paths")
struct RuntimeObjectInterceptionPathTests {
    @Test("an object nobody intercepted reports no interception")
    func notIntercepted() throws {
        let cls = try RuntimeClass.define(uniqueName("PathNone")) { c in
            try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x + 1 }
        }
        #expect(cls.new().interceptionPath(for: "add:") == .notIntercepted)
    }

    @Test("an observed int method takes the optimized trampoline; other instances stay unintercepted")
    func optimized() throws {
        let cls = try RuntimeClass.define(uniqueName("PathOptimized")) { c in
            try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x + 1 }
        }
        let observed = cls.new()
        let other = cls.new()
        let bag = DisposeBag()
        observed.rx.sentMessage("add:").subscribe().disposed(by: bag)
        #expect(observed.interceptionPath(for: "add:") == .optimized)
        #expect(observed.interceptionPath(for: "reset") == .notIntercepted)
        #expect(other.interceptionPath(for: "add:") == .notIntercepted)
    }

    @Test("a struct-returning method takes the forward path")
    func structForwarded() throws {
        let cls = try RuntimeClass.define(uniqueName("PathStruct")) { c in
            try c.method("origin") { (this: RuntimeObject) -> DD in DD(a: 1, b: 2) }
        }
        let object = cls.new()
        #expect(try object.prepareInterception(of: "origin") == .forwarded)
        #expect(object.interceptionPath(for: "origin") == .forwarded)
    }

    @Test("forcing the forward path gives an int method the forward closure, and observers still see calls")
    func forcedForwarding() throws {
        let cls = try RuntimeClass.define(uniqueName("PathForced")) { c in
            try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x + 1 }
        }
        let counters = Runtime.interceptionCounters(for: cls)
        let object = cls.new()
        #expect(try object.prepareInterception(of: "add:", forceForwarding: true) == .forwarded)
        let after = Runtime.interceptionCounters(for: cls)
        #expect(after.forwardedMethods == counters.forwardedMethods + 1)
        #expect(after.optimizedMethods == counters.optimizedMethods)

        let log = EventLog()
        let bag = DisposeBag()
        object.rx.sentMessage("add:", as: Int32.self)
            .subscribe(onNext: { x in log.append("add: \(x)") })
            .disposed(by: bag)
        let r: Int32 = try object.send("add:", Int32(41))
        #expect(r == 42)
        #expect(log.all == ["add: 41"])
        #expect(object.interceptionPath(for: "add:") == .forwarded)
    }

    @Test("the path is chosen once per class and selector: a later forced request keeps it")
    func pathChosenOnce() throws {
        let cls = try RuntimeClass.define(uniqueName("PathOnce")) { c in
            try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x + 1 }
        }
        #expect(try cls.new().prepareInterception(of: "add:") == .optimized)
        #expect(try cls.new().prepareInterception(of: "add:", forceForwarding: true) == .optimized)
    }

    @Test("preparing an unimplemented selector throws naming class and selector; nothing changes")
    func refused() throws {
        let cls = try plainClass("PathRefused")
        let object = cls.new()
        #expect(throws: InterceptionError.selectorNotImplemented(className: cls.name, selector: "undo")) {
            try object.prepareInterception(of: "undo")
        }
        #expect(object.interceptionPath(for: "undo") == .notIntercepted)
        #expect(object.actualClass == cls)
    }
}
