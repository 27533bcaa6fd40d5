@testable import Interception
import RxCore
import Testing

/// Collects the elements and whether the stream completed (Sendable for the test closures).
private final class Events<Element: Sendable>: @unchecked Sendable {
    private let lock = Lock()
    private var stored: [Element] = []
    private var storedCompleted = false

    var elements: [Element] { lock.withLock { stored } }
    var completed: Bool { lock.withLock { storedCompleted } }

    func subscribe(_ observable: Observable<Element>) -> Disposable {
        observable.subscribe(
            onNext: { element in self.lock.withLock { self.stored.append(element) } },
            onCompleted: { self.lock.withLock { self.storedCompleted = true } })
    }
}

/// A struct in two registers.
private struct Pair: RuntimeStruct, Equatable {
    var a: Double
    var b: Int64
    static let runtimeEncoding = "{pair=dq}"
}

/// A large struct: its C value does not fit the observation's stack buffer (32 bytes).
private struct Wide: RuntimeStruct, Equatable {
    var a, b, c, d, e: Int64
    static let runtimeEncoding = "{wide=qqqqq}"
}

@Suite("Property observation: the single-key fast path and key paths")
struct KeyPathObservationTests {
    @Test(
        "a single key and a key path ending in it emit the same events, for each set of options",
        arguments: [
            KeyValueObservingOptions([.initial, .new]), [.new], [.initial], [],
        ] as [KeyValueObservingOptions])
    func singleKeyMatchesKeyPath(_ options: KeyValueObservingOptions) throws {
        let node = try RuntimeClass.define(uniqueName("FastNode")) { c in
            try c.property("count", Int.self)
            try c.property("child", RuntimeObject?.self)
        }
        let root = node.new()
        let child = node.new()
        try root.setValue(child as RuntimeObject?, forKey: "child")
        try child.setValue(1, forKey: "count")
        let direct = Events<Int?>()
        let throughPath = Events<Int?>()
        let d1 = direct.subscribe(child.rx.observe(Int.self, "count", options: options))
        let d2 = throughPath.subscribe(root.rx.observe(Int.self, "child.count", options: options))
        try child.send("setCount:", 2)
        try child.setValue(3, forKey: "count")
        try child.send("setCount:", 3)
        #expect(direct.elements == throughPath.elements)
        let changes: [Int?] = options.contains(.new) ? [2, 3, 3] : [nil, nil, nil]
        let first: [Int?] = options.contains(.new) ? [1] : [nil]
        #expect(direct.elements == (options.contains(.initial) ? first + changes : changes))
        d1.dispose()
        d2.dispose()
    }

    @Test("every kind of property value comes through the fast path: the current value, then each set")
    func everyValueType() throws {
        let other = try RuntimeClass.define(uniqueName("FastValue")) { _ in }
        let first = other.new()
        let second = other.new()
        let cls = try RuntimeClass.define(uniqueName("FastTypes")) { c in
            try c.property("int", Int.self)
            try c.property("small", Int8.self)
            try c.property("short", Int16.self)
            try c.property("word", UInt32.self)
            try c.property("ratio", Double.self)
            try c.property("single", Float.self)
            try c.property("flag", Bool.self)
            try c.property("title", String.self)
            try c.property("object", RuntimeObject?.self)
            try c.property("selector", Selector?.self)
            try c.property("pair", Pair.self)
            try c.property("wide", Wide.self)
        }
        let obj = cls.new()
        try expectObserved(obj, "int", Int.self, 0, [7, -7])
        try expectObserved(obj, "small", Int8.self, 0, [-3, 127])
        try expectObserved(obj, "short", Int16.self, 0, [300, -300])
        try expectObserved(obj, "word", UInt32.self, 0, [.max, 1])
        try expectObserved(obj, "ratio", Double.self, 0, [2.5, -0.25])
        try expectObserved(obj, "single", Float.self, 0, [1.5, 3])
        try expectObserved(obj, "flag", Bool.self, false, [true, false])
        // Never set: nil.
        try expectObserved(obj, "title", String.self, nil, ["a", "long enough to need the heap"])
        try expectObserved(obj, "selector", Selector?.self, .some(nil), [Selector("x:"), nil])
        try expectObserved(obj, "pair", Pair.self, Pair(a: 0, b: 0), [Pair(a: 1, b: 2), Pair(a: -1, b: 5)])
        let wide = Wide(a: 1, b: 2, c: 3, d: 4, e: 5)
        try expectObserved(obj, "wide", Wide.self, Wide(a: 0, b: 0, c: 0, d: 0, e: 0), [wide])
        let objects = Events<RuntimeObject??>()
        let subscription = objects.subscribe(obj.rx.observe(RuntimeObject?.self, "object"))
        try obj.setValue(first as RuntimeObject?, forKey: "object")
        try obj.setValue(second as RuntimeObject?, forKey: "object")
        try obj.setValue(nil as RuntimeObject?, forKey: "object")
        #expect(
            objects.elements.map { $0.flatMap { $0?.pointer } } == [nil, first.pointer, second.pointer, nil])
        subscription.dispose()
    }

    @Test("the current value is emitted during subscribe, and a set from its handler is emitted after it")
    func initialIsSynchronousAndReentrantSetsAreSeen() throws {
        let cls = try RuntimeClass.define(uniqueName("FastReentrant")) { c in
            try c.property("count", Int.self)
        }
        let obj = cls.new()
        try obj.setValue(4, forKey: "count")
        let events = Events<Int?>()
        let subscription = obj.rx.observe(Int.self, "count").subscribe(onNext: { value in
            events.append(value)
            if value == 4 { try! obj.setValue(5, forKey: "count") }
        })
        #expect(events.elements == [4, 5])
        try obj.setValue(6, forKey: "count")
        #expect(events.elements == [4, 5, 6])
        subscription.dispose()
    }

    @Test("observeWeakly of a single key emits nil and completes when the object dies")
    func weakSingleKeyCompletes() throws {
        let cls = try RuntimeClass.define(uniqueName("FastWeak")) { c in
            try c.property("count", Int.self)
        }
        var obj: RuntimeObject? = cls.new()
        let events = Events<Int?>()
        let subscription = events.subscribe(obj!.rx.observeWeakly(Int.self, "count"))
        try obj!.setValue(1, forKey: "count")
        obj = nil
        #expect(events.elements == [0, 1, nil])
        #expect(events.completed)
        subscription.dispose()
    }
}

extension Events {
    fileprivate func append(_ element: Element) {
        lock.withLock { stored.append(element) }
    }
}

/// Observes `key` and sets each of `values` by key (through the setter): the events must be `initial`,
/// then the values.
private func expectObserved<T: PropertyValue & Equatable & Sendable>(
    _ object: RuntimeObject, _ key: String, _ type: T.Type, _ initial: T?, _ values: [T],
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let events = Events<T?>()
    let subscription = events.subscribe(object.rx.observe(T.self, key))
    for value in values {
        try object.setValue(value, forKey: key)
    }
    #expect(events.elements == [initial] + values, sourceLocation: sourceLocation)
    subscription.dispose()
}
