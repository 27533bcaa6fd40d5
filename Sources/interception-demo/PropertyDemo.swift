// The demo's property section: a class with properties, observed with rx.observe while a hook
// and sentMessage watch the same setter.
import Interception

func propertyDemo() throws {
    section("properties: declared in define, observed with rx.observe (RxCocoa's KVO shape)")
    let Person = try RuntimeClass.define("Person") { c in
        try c.property("name", String.self)  // a C string the object copies; Swift sees String
        try c.property("age", Int.self)
        try c.property("friend", RuntimeObject?.self, .weak)
    }
    print("   Person's properties: \(Person.properties.map(\.description).joined(separator: ", "))")
    let bag = DisposeBag()
    let alice = Person.new()
    let bob = Person.new()
    alice.rx.observe(String.self, "name")
        .subscribe(onNext: { print("   observe         name = \($0.map { "\"\($0)\"" } ?? "nil")") })
        .disposed(by: bag)
    alice.rx.observe(Int.self, "friend.age", options: .new)
        .subscribe(onNext: { print("   observe         friend.age = \($0.map(String.init) ?? "nil")") })
        .disposed(by: bag)
    alice.rx.sentMessage("setName:")
        .subscribe(onNext: { _ in print("   sentMessage     setName: (the setter, seen by sentMessage too)") }
        )
        .disposed(by: bag)
    try alice.setValue("Alice", forKey: "name")  // key-value coding sends setName:
    try alice.setValue("Alice B.", forKey: "name")

    print("   a key path re-targets when the object on the way changes:")
    try bob.setValue(41, forKey: "age")
    try alice.setValue(bob, forKey: "friend")
    try bob.setValue(42, forKey: "age")
    try alice.setValue(nil as RuntimeObject?, forKey: "friend")

    print("   binding a sequence to the property:")
    Observable.from(["Ann", "Anna"]).bind(to: alice.rx.property("name", String.self)).disposed(by: bag)
    print("   value(forKey: \"name\") = \"\(try alice.value(forKey: "name", as: String.self))\"")
}
