// Scenarios of RxCocoa's SentMessageTest / NSObject+RxTests and KVOObservableTests that the other
// suites leave out: reentrant calls, subscribing from a handler, where deallocating and
// deallocated fall around the class's dealloc, interception requested while the object dies,
// and KVO's emit-on-every-set and per-subscription (cold) observation.
@testable import Interception
import RxCore
import Testing

/// A class whose `countDown:` calls itself until zero, and whose dealloc logs.
private func makeRecursive(log: EventLog) throws -> RuntimeClass {
    try RuntimeClass.define(uniqueName("RxParityRecursive")) { c in
        try c.method("countDown:") { (this: RuntimeObject, n: Int32) in
            log.append("original \(n)")
            if n > 0 { try? this.send("countDown:", n - 1) }
        }
        try c.property("count", Int.self)
        try c.property("child", RuntimeObject?.self)
        try c.dealloc { _ in log.append("class dealloc") }
    }
}

/// (`Int64` and `UInt64` box as `Int` and `UInt`, the types of `q` and `Q`.)
/// A 40-byte struct (RxCocoa's `justCalledLarge:`): returned in memory, not in registers.
private struct ParityLarge: RuntimeStruct, Equatable {
    var a, b, c, d, e: Int64
    static let runtimeEncoding = "{ParityLarge=qqqqq}"
}

/// An argument as boxed by sentMessage: a struct as its ``RuntimeStructValue``, the rest as itself.
private func unboxed<T>(_ argument: Any, as type: T.Type) -> T? {
    if let boxed = argument as? RuntimeStructValue, let structType = T.self as? any RuntimeStruct.Type {
        return (try? boxed.load(as: structType)) as? T
    }
    return argument as? T
}

/// Checks one `justCalledX:`-shaped method: it returns its argument, sentMessage and
/// methodInvoked each see the argument once around the original, and both complete when the
/// object dies (SentMessageTest's _testMessageRecordedAndAllCallsAreMade).
private func checkReturnsItsArgument<T: RuntimeValue & Equatable>(_ value: T) throws {
    for sent in [true, false] {
        let log = EventLog()
        let cls = try RuntimeClass.define(uniqueName("RxParityAllTypes")) { c in
            try c.method("justCalled:") { (this: RuntimeObject, x: T) -> T in
                log.append("original")
                return x
            }
        }
        var seen: [T] = []
        let seenLock = Lock()
        do {
            let obj = cls.new()
            let stream = sent ? obj.rx.sentMessage("justCalled:") : obj.rx.methodInvoked("justCalled:")
            _ = stream.subscribe(
                onNext: { args in
                    seenLock.withLock { seen.append(contentsOf: args.compactMap { unboxed($0, as: T.self) }) }
                    log.append("observed")
                }, onCompleted: { log.append("completed") })
            let result: T = try obj.send("justCalled:", value)
            #expect(result == value)
        }
        #expect(seenLock.withLock { seen } == [value])
        #expect(
            log.all
                == (sent ? ["observed", "original", "completed"] : ["original", "observed", "completed"]))
    }
}

@Suite("rx bindings: RxCocoa parity")
struct RxCocoaParityTests {
    @Test("a method calling itself is reported per call: sentMessage outside-in, methodInvoked inside-out")
    func reentrantCallsAreEachReported() throws {
        let log = EventLog()
        let obj = try makeRecursive(log: log).new()
        let bag = DisposeBag()
        obj.rx.sentMessage("countDown:").subscribe(onNext: { log.append("sent \($0)") }).disposed(by: bag)
        obj.rx.methodInvoked("countDown:").subscribe(onNext: { log.append("invoked \($0)") }).disposed(
            by: bag)
        try obj.send("countDown:", Int32(1))
        #expect(
            log.all == [
                "sent [1]", "original 1", "sent [0]", "original 0", "invoked [0]", "invoked [1]",
            ])
    }

    @Test("a subscriber added from a sentMessage handler misses that call and sees the next (publish)")
    func subscribingFromAHandlerSeesTheNextCall() throws {
        let log = EventLog()
        let obj = try makeRecursive(log: log).new()
        let bag = DisposeBag()
        let sent = obj.rx.sentMessage("countDown:")
        let added = Locked(false)
        sent.subscribe(onNext: { _ in
            guard
                !added.withLock({
                    let was = $0
                    $0 = true
                    return was
                })
            else { return }
            sent.subscribe(onNext: { log.append("late \($0)") }).disposed(by: bag)
        }).disposed(by: bag)
        try obj.send("countDown:", Int32(0))
        try obj.send("countDown:", Int32(0))
        #expect(log.all == ["original 0", "late [0]", "original 0"])
    }

    @Test("disposing one of two subscribers of a selector keeps the other receiving")
    func disposingOneSubscriberKeepsTheOther() throws {
        let log = EventLog()
        let obj = try makeRecursive(log: log).new()
        let first = obj.rx.methodInvoked("countDown:").subscribe(onNext: { log.append("first \($0)") })
        let second = obj.rx.methodInvoked("countDown:").subscribe(onNext: { log.append("second \($0)") })
        first.dispose()
        try obj.send("countDown:", Int32(0))
        #expect(log.all == ["original 0", "second [0]"])
        second.dispose()
        try obj.send("countDown:", Int32(0))
        #expect(log.all == ["original 0", "second [0]", "original 0"])
    }

    @Test(
        "deallocating fires before the class's dealloc runs and completes after it (RxCocoa's proxy deinit); deallocated follows"
    )
    func deallocatingBeforeDeallocatedAfter() throws {
        let log = EventLog()
        var obj: RuntimeObject? = try makeRecursive(log: log).new()
        let bag = DisposeBag()
        obj!.rx.deallocating.subscribe { log.append("deallocating \($0)") }.disposed(by: bag)
        obj!.rx.deallocated.subscribe { log.append("deallocated \($0)") }.disposed(by: bag)
        obj = nil
        #expect(
            log.all == [
                "deallocating next(())", "class dealloc", "deallocating completed", "deallocated next(())",
                "deallocated completed",
            ])
    }

    @Test("the object is still usable from a deallocating handler: its properties read what was set")
    func objectReadableWhileDeallocating() throws {
        let log = EventLog()
        var obj: RuntimeObject? = try makeRecursive(log: log).new()
        try obj!.setValue(5, forKey: "count")
        let address = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(obj!.pointer)))
        let bag = DisposeBag()
        obj!.rx.deallocating.subscribe(onNext: {
            let dying = RuntimeObject(retaining: OpaquePointer(bitPattern: address)!)
            log.append("count \((try? dying.value(forKey: "count", as: Int.self)) ?? -1)")
        }).disposed(by: bag)
        obj = nil
        #expect(log.all == ["count 5", "class dealloc"])
    }

    @Test(
        "sentMessage subscribed while the object is deallocating is refused with objectDeallocating (RxCocoa completes)"
    )
    func sentMessageWhileDeallocatingIsRefused() throws {
        let log = EventLog()
        let cls = try makeRecursive(log: log)
        let className = cls.name
        var obj: RuntimeObject? = cls.new()
        let address = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(obj!.pointer)))
        let bag = DisposeBag()
        obj!.rx.deallocating.subscribe(onNext: {
            let dying = RuntimeObject(retaining: OpaquePointer(bitPattern: address)!)
            dying.rx.sentMessage("countDown:").subscribe { log.append("late \($0)") }.disposed(by: bag)
        }).disposed(by: bag)
        obj = nil
        #expect(
            log.all.filter { $0.hasPrefix("late") } == [
                "late error(cannot intercept -[\(className) countDown:]: the object is being deallocated)"
            ])
    }

    @Test("methods of every returned type give back their result while observed, each call seen once")
    func everyReturnTypeWhileObserved() throws {
        try checkReturnsItsArgument(Int8(3))
        try checkReturnsItsArgument(Int16(4))
        try checkReturnsItsArgument(Int32(5))
        try checkReturnsItsArgument(Int(6))
        try checkReturnsItsArgument(UInt8(8))
        try checkReturnsItsArgument(UInt16(9))
        try checkReturnsItsArgument(UInt32(10))
        try checkReturnsItsArgument(UInt(11))
        try checkReturnsItsArgument(Float(13))
        try checkReturnsItsArgument(Double(13))
        try checkReturnsItsArgument(true)
        try checkReturnsItsArgument(ParityLarge(a: 1, b: 2, c: 3, d: 4, e: 28))
    }

    @Test(
        "a second object of an observed class reuses the class's interception: no new subclass or method (ensureGlobalRuntimeChangesAreCached)"
    )
    func runtimeChangesAreCachedPerClass() throws {
        let log = EventLog()
        let cls = try makeRecursive(log: log)
        let sub = try RuntimeClass.define(uniqueName("RxParityRecursiveSub"), superclass: cls) { _ in }
        func observeOnce(_ c: RuntimeClass) throws {
            let obj = c.new()
            let bag = DisposeBag()
            obj.rx.sentMessage("countDown:").subscribe().disposed(by: bag)
            obj.rx.methodInvoked("countDown:").subscribe().disposed(by: bag)
            try obj.send("countDown:", Int32(0))
        }
        try observeOnce(cls)
        let afterFirst = Runtime.interceptionCounters(for: cls)
        #expect(afterFirst.dynamicSubclasses == 1)
        try observeOnce(cls)
        #expect(Runtime.interceptionCounters(for: cls) == afterFirst)
        // A subclass's objects get their own interception subclass, once; the base's is untouched.
        try observeOnce(sub)
        let afterSub = Runtime.interceptionCounters(for: sub)
        #expect(afterSub.dynamicSubclasses == 1)
        try observeOnce(sub)
        try observeOnce(cls)
        #expect(Runtime.interceptionCounters(for: sub) == afterSub)
        #expect(Runtime.interceptionCounters(for: cls) == afterFirst)
    }

    @Test("a sentMessage handler calling the method again: every call reaches every subscriber once")
    func handlerCallsTheMethodAgain() throws {
        let log = EventLog()
        let obj = try makeRecursive(log: log).new()
        let bag = DisposeBag()
        let calledAgain = Locked(false)
        obj.rx.sentMessage("countDown:").subscribe(onNext: { args in
            log.append("a \(args)")
            if !calledAgain.withLock({
                let was = $0
                $0 = true
                return was
            }) {
                try? obj.send("countDown:", Int32(0))
            }
        }).disposed(by: bag)
        obj.rx.sentMessage("countDown:").subscribe(onNext: { log.append("b \($0)") }).disposed(by: bag)
        obj.rx.methodInvoked("countDown:").subscribe(onNext: { log.append("after \($0)") }).disposed(by: bag)
        try obj.send("countDown:", Int32(0))
        #expect(log.all.filter { $0.hasPrefix("a ") }.count == 2)
        #expect(log.all.filter { $0.hasPrefix("b ") }.count == 2)
        #expect(log.all.filter { $0.hasPrefix("after ") }.count == 2)
        #expect(log.all.filter { $0.hasPrefix("original") }.count == 2)
        #expect(log.all.last == "after [0]")
    }

    @Test(
        "deallocating and deallocated requested from the class's own dealloc still deliver: deallocating replayed, deallocated once the dealloc ran"
    )
    func deallocStreamsRequestedInsideDealloc() throws {
        let log = EventLog()
        let cls = try RuntimeClass.define(uniqueName("RxParityLateDeallocated")) { c in
            try c.dealloc { this in
                _ = this.rx.deallocated.subscribe { log.append("deallocated \($0)") }
                _ = this.rx.deallocating.subscribe { log.append("deallocating \($0)") }
                log.append("dealloc")
            }
        }
        var obj: RuntimeObject? = cls.new()
        _ = obj
        obj = nil
        #expect(
            log.all == [
                "dealloc", "deallocating next(())", "deallocating completed", "deallocated next(())",
                "deallocated completed",
            ])
    }

    @Test("deallocated requested from a deallocating subscriber fires after the dealloc, once")
    func deallocatedRequestedWhileDeallocating() throws {
        let log = EventLog()
        var obj: RuntimeObject? = try makeRecursive(log: log).new()
        let address = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(obj!.pointer)))
        let bag = DisposeBag()
        obj!.rx.deallocating.subscribe(onNext: {
            let dying = RuntimeObject(retaining: OpaquePointer(bitPattern: address)!)
            dying.rx.deallocated.subscribe { log.append("late \($0)") }.disposed(by: bag)
        }).disposed(by: bag)
        obj = nil
        #expect(log.all == ["class dealloc", "late next(())", "late completed"])
    }
}

@Suite("Property observation: RxCocoa parity")
struct PropertyObservationParityTests {
    @Test("setting a property to the value it has emits again, as KVO does")
    func sameValueEmitsAgain() throws {
        let obj = try makeRecursive(log: EventLog()).new()
        let log = EventLog()
        let bag = DisposeBag()
        obj.rx.observe(Int.self, "count").subscribe(onNext: { log.append("\($0.map(String.init) ?? "nil")") })
            .disposed(by: bag)
        try obj.setValue(5, forKey: "count")
        try obj.setValue(5, forKey: "count")
        try obj.send("setCount:", 5)
        #expect(log.all == ["0", "5", "5", "5"])
    }

    @Test("an object property set to the same object emits it again; through a key path too")
    func sameObjectEmitsAgain() throws {
        let cls = try makeRecursive(log: EventLog())
        let root = cls.new()
        let child = cls.new()
        try child.setValue(3, forKey: "count")
        let log = EventLog()
        let bag = DisposeBag()
        root.rx.observe(RuntimeObject.self, "child").subscribe(onNext: {
            log.append($0 == child ? "child" : "nil")
        })
        .disposed(by: bag)
        root.rx.observe(Int.self, "child.count").subscribe(onNext: {
            log.append("count \($0.map(String.init) ?? "nil")")
        })
        .disposed(by: bag)
        try root.setValue(child as RuntimeObject?, forKey: "child")
        try root.setValue(child as RuntimeObject?, forKey: "child")
        #expect(log.all == ["nil", "count nil", "child", "count 3", "child", "count 3"])
    }

    @Test("each subscription of one observe observable starts with the value current at its subscribe")
    func eachSubscriptionGetsItsOwnInitialValue() throws {
        let obj = try makeRecursive(log: EventLog()).new()
        let observable = obj.rx.observe(Int.self, "count")
        let log = EventLog()
        let bag = DisposeBag()
        observable.subscribe(onNext: { log.append("a \($0!)") }).disposed(by: bag)
        try obj.setValue(1, forKey: "count")
        observable.subscribe(onNext: { log.append("b \($0!)") }).disposed(by: bag)
        try obj.setValue(2, forKey: "count")
        #expect(log.all == ["a 0", "a 1", "b 1", "a 2", "b 2"])
    }

    @Test("disposing from an onNext handler stops the stream at once")
    func disposingFromTheHandler() throws {
        let obj = try makeRecursive(log: EventLog()).new()
        let log = EventLog()
        let subscription = SingleAssignmentDisposable()
        subscription.setDisposable(
            obj.rx.observe(Int.self, "count", options: .new).subscribe(onNext: {
                log.append("\($0!)")
                subscription.dispose()
            }))
        try obj.setValue(1, forKey: "count")
        try obj.setValue(2, forKey: "count")
        #expect(log.all == ["1"])
    }

    @Test("observeWeakly along a strong key path re-targets when the intermediate is replaced")
    func observeWeaklyRetargets() throws {
        let cls = try makeRecursive(log: EventLog())
        let root = cls.new()
        let first = cls.new()
        let second = cls.new()
        try first.setValue(1, forKey: "count")
        try second.setValue(2, forKey: "count")
        try root.setValue(first as RuntimeObject?, forKey: "child")
        let log = EventLog()
        let bag = DisposeBag()
        root.rx.observeWeakly(Int.self, "child.count").subscribe(onNext: {
            log.append("\($0.map(String.init) ?? "nil")")
        })
        .disposed(by: bag)
        try root.setValue(second as RuntimeObject?, forKey: "child")
        try first.setValue(10, forKey: "count")
        try second.setValue(20, forKey: "count")
        #expect(log.all == ["1", "2", "20"])
    }

    @Test(
        "observe without retaining self along a key path completes when the root dies, emitting nothing more")
    func observeNotRetainingKeyPathCompletes() throws {
        let cls = try makeRecursive(log: EventLog())
        let child = cls.new()
        var root: RuntimeObject? = cls.new()
        try root!.setValue(child as RuntimeObject?, forKey: "child")
        let log = EventLog()
        let bag = DisposeBag()
        root!.rx.observe(Int.self, "child.count", retainSelf: false).subscribe {
            log.append("\($0)")
        }.disposed(by: bag)
        root = nil
        try child.setValue(4, forKey: "count")
        #expect(log.all == ["next(Optional(0))", "completed"])
    }

    @Test(
        "a missing key after an object component errors once an object is there to lack it (testObserveWeak_HierarchyPropertyDoesntExist)"
    )
    func missingKeyBehindAnIntermediate() throws {
        let cls = try makeRecursive(log: EventLog())
        for weakly in [true, false] {
            let root = cls.new()
            let log = EventLog()
            let observable =
                weakly
                ? root.rx.observeWeakly(Int.self, "child.missing")
                : root.rx.observe(Int.self, "child.missing")
            let subscription = observable.subscribe(
                onNext: { log.append("\($0.map(String.init) ?? "nil")") },
                onError: { log.append("error \(($0 as? RuntimeError)?.statusName ?? "\($0)")") })
            #expect(log.all == ["nil"])
            try root.setValue(cls.new() as RuntimeObject?, forKey: "child")
            #expect(log.all == ["nil", "error IC_ERR_UNKNOWN_KEY"])
            subscription.dispose()
        }
    }

    @Test(
        "an observation of itself without retaining, disposed from the object's own dealloc (test_ObserveAndDontRetainWorks)"
    )
    func disposedFromTheObjectsDealloc() throws {
        let log = EventLog()
        let subscription = Locked<Disposable?>(nil)
        let cls = try RuntimeClass.define(uniqueName("RxParitySelfObserver")) { c in
            try c.property("value", String.self)
            try c.dealloc { _ in
                subscription.withLock { $0 }?.dispose()
                log.append("dealloc")
            }
        }
        var obj: RuntimeObject? = cls.new()
        try obj!.setValue("", forKey: "value")
        let bag = DisposeBag()
        obj!.rx.deallocated.subscribe(onCompleted: { log.append("deallocated completed") }).disposed(by: bag)
        subscription.withLock {
            $0 = obj!.rx.observe(String.self, "value", retainSelf: false).subscribe {
                log.append("value \($0)")
            }
        }
        try obj!.setValue("1", forKey: "value")
        obj = nil
        #expect(
            log.all == [
                "value next(Optional(\"\"))", "value next(Optional(\"1\"))", "dealloc",
                "deallocated completed",
            ])
    }

    @Test("empty options: no current value, and each change emits nil (KVO sends no new value)")
    func emptyOptions() throws {
        let obj = try makeRecursive(log: EventLog()).new()
        let log = EventLog()
        let subscription = obj.rx.observe(Int.self, "count", options: []).subscribe(onNext: {
            log.append("\($0.map(String.init) ?? "nil")")
        })
        try obj.setValue(3, forKey: "count")
        #expect(log.all == ["nil"])
        subscription.dispose()
    }

    @Test("a key with accessor methods but no declared property is observed as key-value coding reaches it")
    func accessorMethodsWithoutProperty() throws {
        let cls = try RuntimeClass.define(uniqueName("RxParityAccessors"), storageSize: 8) { c in
            try c.method("level") { (this: RuntimeObject) -> Int in
                try! this.storage(for: this.runtimeClass).load(as: Int.self)
            }
            try c.method("setLevel:") { (this: RuntimeObject, value: Int) in
                try! this.storage(for: this.runtimeClass).storeBytes(of: value, as: Int.self)
            }
        }
        let obj = cls.new()
        let log = EventLog()
        let subscription = obj.rx.observe(Int.self, "level").subscribe(
            onNext: { log.append("\($0.map(String.init) ?? "nil")") },
            onError: { log.append("error \($0)") })
        try obj.send("setLevel:", 4)
        try obj.setValue(5, forKey: "level")
        #expect(log.all == ["0", "4", "5"])
        subscription.dispose()
    }

    @Test(
        "a set from an observer's handler reaches every observer after the current change (KVO nests it: a 1, a 2, b 2, b 1)"
    )
    func nestedSetFromAHandler() throws {
        let obj = try makeRecursive(log: EventLog()).new()
        let log = EventLog()
        let bag = DisposeBag()
        obj.rx.observe(Int.self, "count", options: .new).subscribe(onNext: { value in
            log.append("a \(value!)")
            if value == 1 { try? obj.setValue(2, forKey: "count") }
        }).disposed(by: bag)
        obj.rx.observe(Int.self, "count", options: .new).subscribe(onNext: { log.append("b \($0!)") })
            .disposed(by: bag)
        try obj.setValue(1, forKey: "count")
        #expect(log.all == ["a 1", "b 1", "a 2", "b 2"])
    }

    @Test("a set by key path through the root is seen by an observation of that key path")
    func setByKeyPathIsSeen() throws {
        let cls = try makeRecursive(log: EventLog())
        let root = cls.new()
        let child = cls.new()
        try root.setValue(child as RuntimeObject?, forKey: "child")
        let log = EventLog()
        let bag = DisposeBag()
        root.rx.observe(Int.self, "child.count", options: .new).subscribe(onNext: {
            log.append("\($0.map(String.init) ?? "nil")")
        }).disposed(by: bag)
        try root.setValue(7, forKeyPath: "child.count")
        try root.setValue(cls.new() as RuntimeObject?, forKeyPath: "child")
        #expect(log.all == ["7", "0"])
    }

    @Test("a property with custom accessor names is observed by its key, through its setter")
    func customAccessorNamesObserved() throws {
        let cls = try RuntimeClass.define(uniqueName("RxParityCustomNames")) { c in
            try c.property("visible", Bool.self, getter: "isVisible", setter: "makeVisible:")
        }
        let obj = cls.new()
        let log = EventLog()
        let bag = DisposeBag()
        obj.rx.observe(Bool.self, "visible").subscribe(
            onNext: { log.append("\($0.map { "\($0)" } ?? "nil")") }, onError: { log.append("error \($0)") }
        ).disposed(by: bag)
        try obj.send("makeVisible:", true)
        try obj.setValue(false, forKey: "visible")
        #expect(log.all == ["false", "true", "false"])
    }
}
