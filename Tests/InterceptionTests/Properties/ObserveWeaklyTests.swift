// What emits nil when (SPEC 17.4; issue 28 items 5-7): observeWeakly at the object's death, weak
// zeroing at any depth, a dead intermediate in a path of any length, `self` keys.
@testable import Interception
import RxCore
import Testing

/// The elements (as names) and whether the stream completed.
private final class Recorded: @unchecked Sendable {
    private let lock = Lock()
    private var stored: [String] = []
    private var storedCompleted = false
    var elements: [String] { lock.withLock { stored } }
    var completed: Bool { lock.withLock { storedCompleted } }

    func subscribe<E>(_ observable: Observable<E?>, name: @escaping @Sendable (E) -> String) -> Disposable {
        observable.subscribe(
            onNext: { value in
                let text = value.map(name) ?? "nil"
                self.lock.withLock { self.stored.append(text) }
            },
            onCompleted: { self.lock.withLock { self.storedCompleted = true } })
    }
}

/// A node class: a weak `next`, a strong `strongNext`, an `integer` (one per test, so that its
/// live-instance count is the test's own).
private func makeNodeClass() throws -> RuntimeClass {
    try RuntimeClass.define(uniqueName("WeakNode")) { c in
        try c.property("next", RuntimeObject?.self, .weak)
        try c.property("strongNext", RuntimeObject?.self)
        try c.property("integer", Int.self)
    }
}

@Suite("Property observation: what emits nil when")
struct ObserveWeaklyTests {
    @Test("observeWeakly emits nil when the observed object deallocates, then completes")
    func nilAtDeath() throws {
        let recorded = Recorded()
        let weakNode = try makeNodeClass()
        var object: RuntimeObject? = weakNode.new()
        try object!.setValue(1, forKey: "integer")
        _ = recorded.subscribe(object!.rx.observeWeakly(Int.self, "integer")) { "\($0)" }
        try object!.setValue(2, forKey: "integer")
        #expect(recorded.elements == ["1", "2"])
        object = nil
        #expect(recorded.elements == ["1", "2", "nil"])
        #expect(recorded.completed)
    }

    @Test("observe without retaining self completes at the object's death without emitting nil (RxCocoa)")
    func observeNotRetainingCompletesOnly() throws {
        let recorded = Recorded()
        let weakNode = try makeNodeClass()
        var object: RuntimeObject? = weakNode.new()
        _ = recorded.subscribe(object!.rx.observe(Int.self, "integer", retainSelf: false)) { "\($0)" }
        object = nil
        #expect(recorded.elements == ["0"])
        #expect(recorded.completed)
    }

    @Test("observeWeakly with .new only: no current value, nil at death")
    func newOnlyNilAtDeath() throws {
        let recorded = Recorded()
        let weakNode = try makeNodeClass()
        var object: RuntimeObject? = weakNode.new()
        _ = recorded.subscribe(object!.rx.observeWeakly(Int.self, "integer", options: .new)) { "\($0)" }
        try object!.setValue(5, forKey: "integer")
        object = nil
        #expect(recorded.elements == ["5", "nil"])
        #expect(recorded.completed)
    }

    @Test(
        "a weak chain of length 1-4: each link dying emits nil, the root's death nil and completion, nothing retained",
        arguments: [(1, 1), (2, 1), (2, 2), (3, 1), (3, 2), (3, 3), (4, 1), (4, 2), (4, 3), (4, 4)])
    func weakChain(length: Int, dying: Int) throws {
        let recorded = Recorded()
        let weakNode = try makeNodeClass()
        do {
            // objects[0] is the root; objects[i].next = objects[i + 1]; the path's value is objects[length].
            var objects: [RuntimeObject?] = (0...length).map { _ in weakNode.new() }
            for i in 0..<length {
                try objects[i]!.setValue(objects[i + 1], forKey: "next")
            }
            let names = Dictionary(
                uniqueKeysWithValues: objects.enumerated().map {
                    (UInt(bitPattern: Int(bitPattern: UnsafeRawPointer($1!.pointer))), "o\($0)")
                })
            let path = Array(repeating: "next", count: length).joined(separator: ".")
            _ = recorded.subscribe(objects[0]!.rx.observeWeakly(RuntimeObject.self, path)) {
                names[UInt(bitPattern: Int(bitPattern: UnsafeRawPointer($0.pointer)))] ?? "?"
            }
            #expect(recorded.elements == ["o\(length)"])
            objects[dying] = nil
            #expect(recorded.elements == ["o\(length)", "nil"])
            #expect(!recorded.completed)
            objects[0] = nil
            #expect(recorded.elements == ["o\(length)", "nil", "nil"])
            #expect(recorded.completed)
            objects.removeAll()
        }
        #expect(weakNode.liveInstanceCount == 0)
    }

    @Test("observe (retaining) along a weak path: a dying link emits nil; a new link re-targets")
    func retainingObserveOfWeakPath() throws {
        let recorded = Recorded()
        let weakNode = try makeNodeClass()
        let root = weakNode.new()
        var middle: RuntimeObject? = weakNode.new()
        let leaf = weakNode.new()
        try root.setValue(middle, forKey: "next")
        try middle!.setValue(leaf as RuntimeObject?, forKey: "strongNext")
        try leaf.setValue(3, forKey: "integer")
        let subscription = recorded.subscribe(root.rx.observe(Int.self, "next.strongNext.integer")) {
            "\($0)"
        }
        defer { subscription.dispose() }
        middle = nil
        #expect(recorded.elements == ["3", "nil"])
        let replacement = weakNode.new()
        try replacement.setValue(leaf as RuntimeObject?, forKey: "strongNext")
        try root.setValue(replacement as RuntimeObject?, forKey: "next")
        try leaf.setValue(4, forKey: "integer")
        #expect(recorded.elements == ["3", "nil", "3", "4"])
    }

    @Test("self components of a key path are skipped")
    func selfIsSkipped() throws {
        let recorded = Recorded()
        let weakNode = try makeNodeClass()
        let root = weakNode.new()
        let child = weakNode.new()
        try root.setValue(child as RuntimeObject?, forKey: "strongNext")
        try child.setValue(7, forKey: "integer")
        let bag = DisposeBag()
        recorded.subscribe(root.rx.observe(Int.self, "self.strongNext.self.integer")) { "\($0)" }.disposed(
            by: bag)
        recorded.subscribe(root.rx.observeWeakly(Int.self, "self.integer")) { "root \($0)" }.disposed(by: bag)
        try child.setValue(8, forKey: "integer")
        #expect(recorded.elements == ["7", "root 0", "8"])
    }
}
