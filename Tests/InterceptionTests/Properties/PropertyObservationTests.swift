import CInterception
@testable import Interception
import RxCore
import Testing

/// Classes for the observation tests: a node with a title, a count, a weak friend and a strong
/// child (so key paths can go through objects), and a class whose setter is hand-written.
private struct Model {
    let node: RuntimeClass
    let hand: RuntimeClass

    init() throws {
        node = try RuntimeClass.define(uniqueName("ObsNode")) { c in
            try c.property("title", String.self)
            try c.property("count", Int.self)
            try c.property("child", RuntimeObject?.self)
            try c.property("friend", RuntimeObject?.self, .weak)
            try c.property("identifier", Int.self, .readonly)
        }
        hand = try RuntimeClass.define(uniqueName("ObsHand"), storageSize: 8) { c in
            try c.property("level", Int.self, .dynamic)
            try c.method("level") { (this: RuntimeObject) -> Int in
                try! this.storage(for: this.runtimeClass).load(as: Int.self)
            }
            try c.method("setLevel:") { (this: RuntimeObject, value: Int) in
                try! this.storage(for: this.runtimeClass).storeBytes(of: value, as: Int.self)
            }
        }
    }
}

/// Collects events of an observation.
private final class Recorded<Element: Sendable>: @unchecked Sendable {
    private let lock = Lock()
    private var storedElements: [Element] = []
    private var storedCompleted = false
    private var storedError: (any Error)?

    var elements: [Element] { lock.withLock { storedElements } }
    var completed: Bool { lock.withLock { storedCompleted } }
    var error: (any Error)? { lock.withLock { storedError } }

    func subscribe(_ observable: Observable<Element>) -> Disposable {
        observable.subscribe { event in
            self.lock.withLock {
                switch event {
                case .next(let element): self.storedElements.append(element)
                case .error(let error): self.storedError = error
                case .completed: self.storedCompleted = true
                }
            }
        }
    }
}

@Suite("Property observation: rx.observe, rx.observeWeakly, rx.property")
struct PropertyObservationTests {
    @Test("the default options emit the current value, then each value set through the setter or by key")
    func initialAndNew() throws {
        let model = try Model()
        let obj = model.node.new()
        try obj.setValue(1, forKey: "count")
        let recorded = Recorded<Int?>()
        let subscription = recorded.subscribe(obj.rx.observe(Int.self, "count"))
        try obj.send("setCount:", 2)
        try obj.setValue(3, forKey: "count")
        #expect(recorded.elements == [1, 2, 3])
        subscription.dispose()
        try obj.send("setCount:", 4)
        #expect(recorded.elements == [1, 2, 3])
    }

    @Test("each option: .new only skips the current value; .initial only emits nil for changes")
    func options() throws {
        let model = try Model()
        let obj = model.node.new()
        try obj.setValue("a", forKey: "title")
        let newOnly = Recorded<String?>()
        let initialOnly = Recorded<String?>()
        let d1 = newOnly.subscribe(obj.rx.observe(String.self, "title", options: .new))
        let d2 = initialOnly.subscribe(obj.rx.observe(String.self, "title", options: .initial))
        try obj.setValue("b", forKey: "title")
        #expect(newOnly.elements == ["b"])
        #expect(initialOnly.elements == [nil, nil])
        d1.dispose()
        d2.dispose()
    }

    @Test("several observers of one key all see each change")
    func severalObservers() throws {
        let model = try Model()
        let obj = model.node.new()
        let first = Recorded<Int?>()
        let second = Recorded<Int?>()
        let d1 = first.subscribe(obj.rx.observe(Int.self, "count"))
        try obj.setValue(5, forKey: "count")
        let d2 = second.subscribe(obj.rx.observe(Int.self, "count", options: .new))
        try obj.setValue(6, forKey: "count")
        #expect(first.elements == [0, 5, 6])
        #expect(second.elements == [6])
        d1.dispose()
        d2.dispose()
    }

    @Test("a hand-written setter is observed as a synthesized one is")
    func handWrittenSetter() throws {
        let model = try Model()
        let obj = model.hand.new()
        let recorded = Recorded<Int?>()
        let subscription = recorded.subscribe(obj.rx.observe(Int.self, "level"))
        try obj.send("setLevel:", 7)
        try obj.setValue(8, forKey: "level")
        #expect(recorded.elements == [0, 7, 8])
        subscription.dispose()
    }

    @Test("a key path re-targets when the intermediate object is replaced or set to nil")
    func keyPathRetargets() throws {
        let model = try Model()
        let root = model.node.new()
        let first = model.node.new()
        let second = model.node.new()
        try first.setValue("first", forKey: "title")
        try second.setValue("second", forKey: "title")
        let recorded = Recorded<String?>()
        let subscription = recorded.subscribe(root.rx.observe(String.self, "child.title"))
        try root.setValue(first, forKey: "child")
        try first.setValue("first again", forKey: "title")
        try root.setValue(second, forKey: "child")
        try first.setValue("not seen", forKey: "title")  // no longer on the path
        try second.setValue("second again", forKey: "title")
        try root.setValue(nil as RuntimeObject?, forKey: "child")
        #expect(recorded.elements == [nil, "first", "first again", "second", "second again", nil])
        subscription.dispose()
    }

    @Test("an intermediate held weakly reads nil once it dies")
    func weakIntermediateDies() throws {
        let model = try Model()
        let root = model.node.new()
        let recorded = Recorded<Int?>()
        let subscription = recorded.subscribe(root.rx.observe(Int.self, "friend.count"))
        do {
            let friend = model.node.new()
            try friend.setValue(3, forKey: "count")
            try root.setValue(friend, forKey: "friend")
            try friend.setValue(4, forKey: "count")
        }
        #expect(recorded.elements == [nil, 3, 4, nil])
        subscription.dispose()
    }

    @Test("observe keeps the object alive while subscribed; observeWeakly does not and completes at dealloc")
    func retention() throws {
        let model = try Model()
        var strong: RuntimeObject? = model.node.new()
        let strongRef = WeakRuntimeObject(strong)
        let strongRecorded = Recorded<Int?>()
        let d1 = strongRecorded.subscribe(strong!.rx.observe(Int.self, "count"))
        strong = nil
        #expect(strongRef.object != nil)
        d1.dispose()
        #expect(strongRef.object == nil)
        #expect(!strongRecorded.completed)

        var weak: RuntimeObject? = model.node.new()
        let weakRef = WeakRuntimeObject(weak)
        let weakRecorded = Recorded<Int?>()
        let d2 = weakRecorded.subscribe(weak!.rx.observeWeakly(Int.self, "count"))
        try weak!.setValue(1, forKey: "count")
        weak = nil
        #expect(weakRef.object == nil)
        #expect(weakRecorded.elements == [0, 1, nil])
        #expect(weakRecorded.completed)
        d2.dispose()
    }

    @Test(
        "observeWeakly along a key path emits nil and completes when the root dies even if the intermediate lives"
    )
    func weakKeyPathCompletes() throws {
        let model = try Model()
        let child = model.node.new()
        var root: RuntimeObject? = model.node.new()
        try root!.setValue(child, forKey: "child")
        let recorded = Recorded<String?>()
        let subscription = recorded.subscribe(root!.rx.observeWeakly(String.self, "child.title"))
        try child.setValue("x", forKey: "title")
        root = nil
        #expect(recorded.completed)
        try child.setValue("y", forKey: "title")
        #expect(recorded.elements == [nil, "x", nil])
        subscription.dispose()
    }

    @Test("observation, sentMessage and a hook combine on one object")
    func combinesWithSentMessageAndHooks() throws {
        let model = try Model()
        let obj = model.node.new()
        let log = EventLog()
        let observed = Recorded<Int?>()
        let d1 = observed.subscribe(obj.rx.observe(Int.self, "count"))
        let d2 = obj.rx.sentMessage("setCount:").subscribe(onNext: { args in log.append("sent \(args[0])") })
        let hook = try obj.hookInstead("setCount:") {
            (original: (Int) -> Void, this: RuntimeObject, value: Int) in
            log.append("hook \(value)")
            original(value * 10)
        }
        try obj.setValue(2, forKey: "count")
        #expect(log.all == ["sent 2", "hook 2"])
        #expect(observed.elements == [0, 20])
        hook.cancel()
        d2.dispose()
        try obj.send("setCount:", 3)
        #expect(observed.elements == [0, 20, 3])
        d1.dispose()
        #expect(obj.actualClass == model.node)
    }

    @Test("bad keys, a readonly key and a wrong type are the stream's error on subscribe")
    func badKeys() throws {
        let model = try Model()
        let obj = model.node.new()
        for (observable, status) in [
            (obj.rx.observe(Int.self, "missing"), "IC_ERR_UNKNOWN_KEY"),
            (obj.rx.observe(Int.self, "identifier"), "IC_ERR_READONLY_KEY"),
            (obj.rx.observe(Int.self, "title"), "IC_ERR_SIGNATURE_MISMATCH"),
            (obj.rx.observe(Int.self, "count.title"), "IC_ERR_SIGNATURE_MISMATCH"),
            (obj.rx.observe(Int.self, "child..count"), "IC_ERR_INVALID_ARGUMENT"),
        ] {
            let recorded = Recorded<Int?>()
            _ = recorded.subscribe(observable)
            #expect((recorded.error as? RuntimeError)?.statusName == status)
        }
    }

    @Test("rx.property emits the values and binding a sequence to it sets the property")
    func propertyBinding() throws {
        let model = try Model()
        let obj = model.node.new()
        let values = Recorded<String>()
        let subscription = values.subscribe(obj.rx.property("title", String.self).asObservable())
        let binding = Observable.from(["one", "two"]).bind(to: obj.rx.property("title", String.self))
        #expect(try obj.value(forKey: "title", as: String.self) == "two")
        #expect(values.elements == ["one", "two"])  // a never-set String is nil, which it skips
        let changes = Recorded<String>()
        let d = changes.subscribe(obj.rx.property("title", String.self).changed)
        try obj.setValue("three", forKey: "title")
        #expect(changes.elements == ["three"])
        d.dispose()
        binding.dispose()
        subscription.dispose()
    }

    @Test("a property set from other threads while observers come and go (TSan)")
    func concurrentSetsAndObservers() async throws {
        let model = try Model()
        let obj = model.node.new()
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for i in 0..<200 {
                        if worker < 2 {
                            try! obj.setValue(i, forKey: "count")
                        } else {
                            let recorded = Recorded<Int?>()
                            let subscription = recorded.subscribe(obj.rx.observe(Int.self, "count"))
                            try! obj.setValue(-i, forKey: "count")
                            subscription.dispose()
                            // The initial value at least. The set's own event may be delivered
                            // by a thread already delivering one (subjects serialize), after this
                            // dispose: it is then dropped, as an event after disposal is.
                            #expect(recorded.elements.count >= 1)
                            #expect(recorded.error == nil)
                        }
                    }
                }
            }
        }
        let recorded = Recorded<Int?>()
        let subscription = recorded.subscribe(obj.rx.observe(Int.self, "count", options: .new))
        try obj.setValue(1, forKey: "count")
        #expect(recorded.elements == [1])
        subscription.dispose()
    }
}
