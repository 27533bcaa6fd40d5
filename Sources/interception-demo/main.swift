// interception-demo: a short tour of Interception, printing what it observes.
//
//   swift run interception-demo
//
// It defines a class in Swift, observes one of its methods on one object with `sentMessage` and
// `methodInvoked` (an optimized trampoline), observes a struct-returning method (the libffi
// forward path), changes another object's method with an instead hook and cancels it, hooks a
// class method for the whole class (classes are objects with a metaclass), shows the
// error for a selector the class does not implement, and watches the object die with
// `deallocating` and `deallocated`; then a delegate protocol used with a real delegate and
// `rx.delegate` at once (DelegateProxyDemo.swift).
import Interception

struct Point: RuntimeStruct, CustomStringConvertible {
    var x: Double
    var y: Double
    static let runtimeEncoding = "{Point=dd}"
    var description: String { "(\(x), \(y))" }
}

func section(_ title: String) {
    print("\n== \(title)")
}

do {
    // 1. A class defined in Swift: methods from typed closures, encodings derived from the types.
    let Counter = try RuntimeClass.define("Counter") { c in
        try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in
            print("   original  -[Counter add:\(x)] returns \(x + 1)")
            return x + 1
        }
        try c.method("origin") { (this: RuntimeObject) -> Point in
            print("   original  -[Counter origin] returns (1.5, -2.0)")
            return Point(x: 1.5, y: -2.0)
        }
        try c.dealloc { this in
            print("   original  -[Counter dealloc]")
        }
        try c.classMethod("limit") { (this: RuntimeObject) -> Int32 in 10 }
    }
    print(
        "defined \(Counter.name): add: is \(Counter.methodEncoding(for: "add:") ?? "?"), "
            + "origin is \(Counter.methodEncoding(for: "origin") ?? "?")")

    let bag = DisposeBag()
    var counter: RuntimeObject? = Counter.new()
    let other = Counter.new()

    section("sentMessage / methodInvoked on add: (optimized trampoline)")
    counter!.rx.sentMessage("add:")
        .subscribe(onNext: { print("   sentMessage     add: \($0)") })
        .disposed(by: bag)
    counter!.rx.methodInvoked("add:")
        .subscribe(onNext: { print("   methodInvoked   add: \($0)") })
        .disposed(by: bag)
    let r: Int32 = try counter!.send("add:", Int32(41))
    print("   send returned \(r)")
    print(
        "   the object is now a \(counter!.actualClass.name); its `class` still answers \(counter!.runtimeClass.name)"
    )
    let s: Int32 = try other.send("add:", Int32(1))
    print(
        "   another Counter is untouched: add: 1 -> \(s), nothing observed, class \(other.actualClass.name)")

    section("a typed observable: methodInvoked(\"add:\", as: Int32.self), no boxing")
    counter!.rx.methodInvoked("add:", as: Int32.self)
        .subscribe(onNext: { x in print("   typed           add: x = \(x) (an Int32)") })
        .disposed(by: bag)
    let _: Int32 = try counter!.send("add:", Int32(7))

    section("methodInvoked on origin, which returns a struct (libffi forward path)")
    counter!.rx.methodInvoked("origin")
        .subscribe(onNext: { print("   methodInvoked   origin \($0)") })
        .disposed(by: bag)
    let p: Point = try counter!.send("origin")
    print("   send returned \(p)")
    var counters = Runtime.interceptionCounters(for: Counter)
    print("   engine counters for Counter: \(counters)")

    section("hooks that change behaviour: an instead hook on another Counter")
    let hook = try other.hookInstead("add:") { (original: (Int32) -> Int32, this: RuntimeObject, x: Int32) in
        let result = original(x) * 100
        print("   instead hook    add: \(x): original gave \(x + 1), the hook returns \(result)")
        return result
    }
    let hooked: Int32 = try other.send("add:", Int32(2))
    print("   send returned \(hooked); the object is a \(other.actualClass.name) while hooked")
    hook.cancel()
    let unhooked: Int32 = try other.send("add:", Int32(2))
    print("   after cancel: send returned \(unhooked), the object is a \(other.actualClass.name) again")

    section("a class method, sent to the class, hooked class-wide on its metaclass")
    let limit: Int32 = try Counter.send("limit")
    let doubled = try Counter.metaclass.hookAfter("limit") { (result: Int32, this: RuntimeObject) in
        result * 2
    }
    let hookedLimit: Int32 = try Counter.send("limit")
    print("   +[Counter limit] returns \(limit); with an after hook on the metaclass, \(hookedLimit)")
    doubled.cancel()

    section("a selector the class does not implement")
    counter!.rx.sentMessage("reset")
        .subscribe(onError: { print("   error: \($0)") })
        .disposed(by: bag)

    section("deallocating / deallocated")
    counter!.rx.deallocating
        .subscribe(
            onNext: { print("   deallocating (the object is still whole)") },
            onCompleted: { print("   deallocating completed") }
        )
        .disposed(by: bag)
    counter!.rx.deallocated
        .subscribe(
            onNext: { print("   deallocated (the memory is gone)") },
            onCompleted: { print("   deallocated completed") }
        )
        .disposed(by: bag)
    counter!.rx.sentMessage("add:")
        .subscribe(onCompleted: { print("   sentMessage add: completed") })
        .disposed(by: bag)
    print("   releasing the last reference:")
    counter = nil
    counters = Runtime.interceptionCounters(for: Counter)
    print("   engine counters for Counter: \(counters)")

    try delegateProxyDemo()
    try propertyDemo()
} catch {
    print("demo failed: \(error)")
}
