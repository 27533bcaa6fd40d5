import Interception
import Testing

@Suite("The README's Swift example")
struct ReadmeExampleTests {
    @Test("runs as written and reports what the README says")
    func readmeExample() throws {
        let log = EventLog()
        // As in README.md, with a unique class name and prints recorded.
        let Counter = try RuntimeClass.define(uniqueName("Counter")) { c in
            try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x + 1 }  // i@:i
            try c.method("reset") { (this: RuntimeObject) in }  // v@:
        }
        var counter: RuntimeObject? = Counter.new()
        let bag = DisposeBag()

        counter!.rx.sentMessage("add:")
            .subscribe(onNext: { args in log.append("add: called with \(args)") })
            .disposed(by: bag)
        counter!.rx.methodInvoked("add:", as: Int32.self)
            .subscribe(onNext: { x in log.append("add: \(x) returned") })
            .disposed(by: bag)
        counter!.rx.deallocated
            .subscribe(onNext: { log.append("gone") })
            .disposed(by: bag)

        let r: Int32 = try counter!.send("add:", Int32(41))
        #expect(r == 42)
        var undoError: (any Error)?
        _ = counter!.rx.sentMessage("undo").subscribe(onError: { undoError = $0 })
        #expect(
            undoError.map { "\($0)" }
                == "cannot intercept -[\(Counter.name) undo]: the class does not implement it")
        counter = nil
        #expect(log.all == ["add: called with [41]", "add: 41 returned", "gone"])
    }
}

@Suite("The README's property example")
struct ReadmePropertyExampleTests {
    @Test("runs as written: observation sees key-value coding, sends and bindings")
    func readmePropertyExample() throws {
        let log = EventLog()
        let bag = DisposeBag()
        let Person = try RuntimeClass.define(uniqueName("Person")) { c in
            try c.property("name", String.self)
            try c.property("age", Int.self)
            try c.property("friend", RuntimeObject?.self, .weak)
        }
        let alice = Person.new()
        alice.rx.observe(String.self, "name")
            .subscribe(onNext: { log.append("name: \($0 ?? "nil")") })
            .disposed(by: bag)
        try alice.setValue("Alice", forKey: "name")
        try alice.send("setAge:", 30)
        let age = try alice.value(forKey: "age", as: Int.self)
        #expect(age == 30)
        Observable.just("Bob").bind(to: alice.rx.property("name", String.self)).disposed(by: bag)
        #expect(log.all == ["name: nil", "name: Alice", "name: Bob"])  // a never-set String is nil
    }
}
