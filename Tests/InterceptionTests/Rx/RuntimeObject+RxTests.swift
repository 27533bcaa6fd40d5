import CInterception
import Foundation
import Glibc
@testable import Interception
import Synchronization
import Testing

/// A class for the rx suites: `add:` (i@:i), `ping` (v@:), `echo:` of every boxed kind, each
/// logging "original" into the log passed in.
func makeCounter(_ base: String, log: EventLog) throws -> RuntimeClass {
    try RuntimeClass.define(uniqueName(base)) { c in
        try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in
            log.append("original add: \(x)")
            return x + 1
        }
        try c.method("ping") { (this: RuntimeObject) in
            log.append("original ping")
        }
    }
}

/// Subscribes and records every event as text.
private func record<T>(_ observable: Observable<T>, into log: EventLog, _ tag: String, bag: DisposeBag) {
    observable.subscribe { event in
        log.append("\(tag) \(event)")
    }.disposed(by: bag)
}

@Suite("rx bindings: sentMessage and methodInvoked")
struct RxMessageTests {
    @Test("sentMessage fires before the original runs and methodInvoked after it returns")
    func orderAroundTheOriginal() throws {
        let log = EventLog()
        let obj = try makeCounter("RxOrder", log: log).new()
        let bag = DisposeBag()
        obj.rx.sentMessage("add:").subscribe(onNext: { log.append("sent \($0)") }).disposed(by: bag)
        obj.rx.methodInvoked("add:").subscribe(onNext: { log.append("invoked \($0)") }).disposed(by: bag)
        let r: Int32 = try obj.send("add:", Int32(41))
        #expect(r == 42)
        #expect(log.all == ["sent [41]", "original add: 41", "invoked [41]"])
    }

    @Test("arguments of every boxed kind arrive as the documented Swift types")
    func boxedKinds() throws {
        let log = EventLog()
        let target = try plainClass("RxTarget").new()
        let cls = try RuntimeClass.define(uniqueName("RxKinds")) { c in
            try c.method("all:b:c:d:e:f:") {
                (this: RuntimeObject, a: Int8, b: UInt16, c: Int32, d: Int, e: Double, f: Bool) in
            }
            try c.method("refs:c:s:p:") {
                (this: RuntimeObject, o: RuntimeObject?, k: RuntimeClass?, s: Selector, p: UnsafeRawPointer?)
                in
            }
            try c.method("text:f:u:") { (this: RuntimeObject, t: UnsafePointer<CChar>?, f: Float, u: UInt) in
            }
        }
        let obj = cls.new()
        var seen: [[Any]] = []
        let bag = DisposeBag()
        for selector in ["all:b:c:d:e:f:", "refs:c:s:p:", "text:f:u:"] {
            obj.rx.sentMessage(Selector(selector)).subscribe(onNext: { seen.append($0) }).disposed(by: bag)
        }
        try obj.send("all:b:c:d:e:f:", Int8(-3), UInt16(65000), Int32(-7), 1 << 40, 2.5, true)
        let raw = UnsafeRawPointer(bitPattern: 0x1000)
        try obj.send("refs:c:s:p:", target, cls, Selector("ping"), raw)
        var sentText: UnsafePointer<CChar>?
        try "hello".withCString { text in
            sentText = text
            try obj.send("text:f:u:", Optional(text), Float(1.25), UInt.max)
        }
        try #require(seen.count == 3)
        #expect(seen[0][0] as? Int8 == -3)
        #expect(seen[0][1] as? UInt16 == 65000)
        #expect(seen[0][2] as? Int32 == -7)
        #expect(seen[0][3] as? Int == 1 << 40)
        #expect(seen[0][4] as? Double == 2.5)
        #expect(seen[0][5] as? Bool == true)
        #expect((seen[1][0] as? RuntimeObject?) == .some(target))
        #expect((seen[1][1] as? RuntimeClass?) == .some(cls))
        #expect((seen[1][2] as? Selector?) == .some(Selector("ping")))
        #expect((seen[1][3] as? UnsafeRawPointer?) == .some(raw))
        // `*` arrives as the pointer the caller passed (not read: it may not end in a zero).
        #expect((seen[2][0] as? UnsafePointer<CChar>?) == .some(sentText))
        #expect(seen[2][1] as? Float == 1.25)
        #expect(seen[2][2] as? UInt == UInt.max)
        _ = log
    }

    @Test("a struct argument is boxed with its encoding and bytes")
    func structArgument() throws {
        struct Pair: RuntimeStruct {
            var a: Int32
            var b: Double
            static let runtimeEncoding = "{Pair=id}"
        }
        let cls = try RuntimeClass.define(uniqueName("RxStruct")) { c in
            try c.method("take:") { (this: RuntimeObject, p: Pair) in }
        }
        let obj = cls.new()
        var seen: [Any] = []
        let subscription = obj.rx.methodInvoked("take:").subscribe(onNext: { seen = $0 })
        defer { subscription.dispose() }
        try obj.send("take:", Pair(a: 7, b: 0.5))
        let value = try #require(seen.first as? RuntimeStructValue)
        #expect(value.encoding == "{Pair=id}")
        let pair = try value.load(as: Pair.self)  // fields, not bytes: padding is unspecified
        #expect(pair.a == 7)
        #expect(pair.b == 0.5)
    }

    @Test("many subscribers share one installation: a second request or subscription changes no counter")
    func sharedInstallation() throws {
        let log = EventLog()
        let cls = try makeCounter("RxShared", log: log)
        let obj = cls.new()
        let bag = DisposeBag()
        let before = Runtime.interceptionCounters(for: cls)
        let first = obj.rx.sentMessage("add:")
        #expect(Runtime.interceptionCounters(for: cls) == before)  // requesting changes nothing
        var a = 0
        var b = 0
        first.subscribe(onNext: { _ in a += 1 }).disposed(by: bag)
        let after = Runtime.interceptionCounters(for: cls)
        #expect(
            after
                == InterceptionCounters(
                    dynamicSubclasses: 1, optimizedMethods: 1, liveObjects: 1, liveObservers: 1,
                    interceptedObjects: 1))
        let second = obj.rx.sentMessage("add:")
        #expect(Runtime.interceptionCounters(for: cls) == after)
        second.subscribe(onNext: { _ in b += 1 }).disposed(by: bag)
        obj.rx.sentMessage("add:").subscribe(onNext: { _ in b += 10 }).disposed(by: bag)
        let _: Int32 = try obj.send("add:", Int32(1))
        #expect(a == 1)
        #expect(b == 11)
        #expect(Runtime.interceptionCounters(for: cls) == after)
        // methodInvoked adds the after-observer once subscribed, nothing else.
        let invoked = obj.rx.methodInvoked("add:")
        #expect(Runtime.interceptionCounters(for: cls) == after)
        invoked.subscribe().disposed(by: bag)
        var expected = after
        expected.liveObservers = 2
        #expect(Runtime.interceptionCounters(for: cls) == expected)
    }

    @Test(
        "requesting an observable changes nothing (class, respondsToSelector:); the first subscription installs, the last disposal removes"
    )
    func installedBySubscriptions() throws {
        let cls = try makeCounter("RxLazy", log: EventLog())
        let obj = cls.new()
        let before = Runtime.interceptionCounters(for: cls)
        let invoked = obj.rx.methodInvoked("ping")
        let typed = obj.rx.sentMessage("add:", as: Int32.self)
        #expect(obj.actualClass == cls)
        #expect(Runtime.interceptionCounters(for: cls) == before)
        let first = invoked.subscribe()
        let second = typed.subscribe()
        #expect(obj.actualClass != cls)
        #expect(Runtime.interceptionCounters(for: cls).liveObservers == 2)
        first.dispose()
        second.dispose()
        #expect(obj.actualClass == cls)
        #expect(Runtime.interceptionCounters(for: cls).liveObservers == 0)
    }

    @Test("a class and its superclass both observed, the subclass calling super: each call reported once")
    func superclassAndSubclass() throws {
        let log = EventLog()
        let base = try RuntimeClass.define(uniqueName("RxBase")) { c in
            try c.method("value:") { (this: RuntimeObject, x: Int32) -> Int32 in
                log.append("base")
                return x + 1
            }
        }
        let sub = try RuntimeClass.define(uniqueName("RxSub"), superclass: base) { c in
            try c.method("value:") { (this: RuntimeObject, x: Int32) -> Int32 in
                log.append("sub")
                let r: Int32 = try! this.sendSuper("value:", x)
                return r * 10
            }
        }
        let baseObject = base.new()
        let subObject = sub.new()
        let bag = DisposeBag()
        record(baseObject.rx.sentMessage("value:"), into: log, "base observed", bag: bag)
        record(subObject.rx.sentMessage("value:"), into: log, "sub observed", bag: bag)
        let r: Int32 = try subObject.send("value:", Int32(4))
        #expect(r == 50)
        #expect(log.all == ["sub observed next([4])", "sub", "base"])
        let s: Int32 = try baseObject.send("value:", Int32(4))
        #expect(s == 5)
        #expect(log.all.suffix(2) == ["base observed next([4])", "base"])
    }

    @Test("only the observed instance reports calls")
    func onlyThatInstance() throws {
        let log = EventLog()
        let cls = try makeCounter("RxInstance", log: log)
        let watched = cls.new()
        let other = cls.new()
        var calls = 0
        let subscription = watched.rx.sentMessage("add:").subscribe(onNext: { _ in calls += 1 })
        defer { subscription.dispose() }
        let _: Int32 = try other.send("add:", Int32(1))
        #expect(calls == 0)
        #expect(other.actualClass == cls)
    }

    @Test("a subscription does not keep the object alive; the streams complete when it dies")
    func subscriptionDoesNotRetain() throws {
        let log = EventLog()
        let cls = try makeCounter("RxNoRetain", log: log)
        var obj: RuntimeObject? = cls.new()
        let bag = DisposeBag()
        record(obj!.rx.sentMessage("add:"), into: log, "sent", bag: bag)
        record(obj!.rx.methodInvoked("ping"), into: log, "invoked", bag: bag)
        #expect(cls.liveInstanceCount == 1)
        obj = nil
        #expect(cls.liveInstanceCount == 0)
        #expect(Set(log.all) == ["sent completed", "invoked completed"])
        #expect(Runtime.interceptionCounters(for: cls).liveObservers == 0)
    }

    @Test("calls from several threads are all reported, each once")
    func concurrentCalls() async throws {
        let cls = try makeCounter("RxThreads", log: EventLog())
        let obj = cls.new()
        let count = Atomic<Int>(0)
        let counter = Counter()
        let subscription = obj.rx.sentMessage("ping").subscribe(onNext: { _ in counter.add() })
        defer { subscription.dispose() }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<2_000 { try! obj.send("ping") }
                }
            }
        }
        _ = count
        #expect(counter.value == 8_000)
    }

    @Test(
        "each refusal arrives as the observable's error",
        arguments: [
            ("missing:", "selectorNotImplemented"), ("class", "forbiddenSelector"),
            ("respondsToSelector:", "forbiddenSelector"), ("retain", "forbiddenSelector"),
            ("u:", "unsupportedSignature"),
        ])
    func refusals(selector: String, expected: String) throws {
        let cls = try RuntimeClass.define(uniqueName("RxRefuse")) { c in
            try c.method("u:", encoding: "v@:(U=if)", imp: rxNoop)
        }
        let obj = cls.new()
        var received: InterceptionError?
        _ = obj.rx.sentMessage(Selector(selector)).subscribe(onError: { received = $0 as? InterceptionError })
        let error = try #require(received)
        #expect("\(error)".contains(cls.name))
        #expect(error.selector == Selector(selector))
        #expect(error.className == cls.name)
        #expect(String(describing: error).contains(selector))
        #expect(caseName(error) == expected)
    }

    @Test("an object whose class someone else changed is refused with classSwapped")
    func classSwapped() throws {
        let cls = try makeCounter("RxSwapped", log: EventLog())
        let other = try makeCounter("RxSwappedOther", log: EventLog())
        let obj = cls.new()
        let installed = obj.rx.sentMessage("add:").subscribe()  // kept: its removal is not the point
        _ = installed
        #expect(ic_object_set_class(obj.pointer, other.pointer) != nil)
        var received: InterceptionError?
        _ = obj.rx.sentMessage("ping").subscribe(onError: { received = $0 as? InterceptionError })
        #expect(received.map(caseName) == "classSwapped")
    }
}

@Suite("rx bindings: deallocating and deallocated")
struct RxDeallocTests {
    @Test("deallocating and deallocated each emit once and complete when the last reference goes")
    func emitOnceAndComplete() throws {
        let log = EventLog()
        let cls = try makeCounter("RxDies", log: log)
        var obj: RuntimeObject? = cls.new()
        let bag = DisposeBag()
        record(obj!.rx.deallocating, into: log, "deallocating", bag: bag)
        record(obj!.rx.deallocated, into: log, "deallocated", bag: bag)
        #expect(log.all.isEmpty)
        obj = nil
        #expect(
            log.all == [
                "deallocating next(())", "deallocating completed", "deallocated next(())",
                "deallocated completed",
            ])
    }

    @Test("disposing before death means nothing is received")
    func disposedBeforeDeath() throws {
        let log = EventLog()
        let cls = try makeCounter("RxDisposed", log: log)
        var obj: RuntimeObject? = cls.new()
        let a = obj!.rx.deallocating.subscribe { log.append("deallocating \($0)") }
        let b = obj!.rx.deallocated.subscribe { log.append("deallocated \($0)") }
        a.dispose()
        b.dispose()
        obj = nil
        #expect(log.all.isEmpty)
    }

    @Test("subscribing after deallocating fired still receives the replayed event")
    func lateSubscriberGetsReplay() throws {
        let log = EventLog()
        let bag = DisposeBag()
        let deallocating = Locked<Observable<Void>?>(nil)
        let cls = try RuntimeClass.define(uniqueName("RxLate")) { c in
            try c.dealloc { this in
                // deallocating has fired: a new subscriber gets it replayed.
                let observable = deallocating.withLock { $0 }!
                _ = observable.subscribe { log.append("late \($0)") }
            }
        }
        var obj: RuntimeObject? = cls.new()
        deallocating.withLock { $0 = obj!.rx.deallocating }
        record(obj!.rx.deallocating, into: log, "early", bag: bag)
        obj = nil
        #expect(log.all == ["early next(())", "late next(())", "early completed", "late completed"])
    }

    @Test("take(until: deallocated) completes a chain when the object dies")
    func takeUntilDeallocated() throws {
        let log = EventLog()
        let cls = try makeCounter("RxTakeUntil", log: log)
        var obj: RuntimeObject? = cls.new()
        let subject = PublishSubject<Int>()
        let subscription = subject.take(until: obj!.rx.deallocated).subscribe { log.append("\($0)") }
        defer { subscription.dispose() }
        subject.onNext(1)
        obj = nil
        subject.onNext(2)
        #expect(log.all == ["next(1)", "completed"])
    }

    @Test("death on another thread delivers on that thread")
    func deathOnAnotherThread() async throws {
        let cls = try makeCounter("RxThreadDeath", log: EventLog())
        let delivered = Locked<[String]>([])
        let box = ObjectBox(cls.new())
        let bag = DisposeBag()
        box.object!.rx.deallocating.subscribe(onNext: {
            delivered.withLock { $0.append("deallocating on \(currentThreadID())") }
        }).disposed(by: bag)
        box.object!.rx.deallocated.subscribe(onNext: {
            delivered.withLock { $0.append("deallocated on \(currentThreadID())") }
        }).disposed(by: bag)
        let releasingThread = Locked<UInt64>(0)
        let thread = Thread {
            releasingThread.withLock { $0 = currentThreadID() }
            box.object = nil
        }
        thread.start()
        while delivered.withLock({ $0.count }) < 2 { await Task.yield() }
        let id = releasingThread.withLock { $0 }
        #expect(delivered.withLock { $0 } == ["deallocating on \(id)", "deallocated on \(id)"])
    }

    @Test("sentMessage(dealloc) is deallocating and methodInvoked(dealloc) is deallocated")
    func deallocSelectors() throws {
        let log = EventLog()
        let cls = try makeCounter("RxDeallocSelectors", log: log)
        var obj: RuntimeObject? = cls.new()
        let bag = DisposeBag()
        record(obj!.rx.sentMessage("dealloc"), into: log, "sent", bag: bag)
        record(obj!.rx.methodInvoked("dealloc"), into: log, "invoked", bag: bag)
        obj = nil
        #expect(log.all == ["sent next([])", "sent completed", "invoked next([])", "invoked completed"])
    }

    @Test("a stream of sentMessage completes when the object dies, after deallocating")
    func sentMessageCompletesAtDeath() throws {
        let log = EventLog()
        let cls = try makeCounter("RxCompletes", log: log)
        var obj: RuntimeObject? = cls.new()
        let bag = DisposeBag()
        record(obj!.rx.deallocating, into: log, "deallocating", bag: bag)
        record(obj!.rx.sentMessage("add:"), into: log, "sent", bag: bag)
        let _: Int32 = try obj!.send("add:", Int32(1))
        obj = nil
        #expect(log.all.first == "sent next([1])")
        #expect(log.all.contains("sent completed"))
        #expect(log.all.firstIndex(of: "deallocating next(())")! < log.all.firstIndex(of: "sent completed")!)
    }
}

@Suite("rx bindings: typed observables and values")
struct RxTypedTests {
    @Test("methodInvoked(_:as:) delivers typed tuples without boxing")
    func typedTuples() throws {
        let cls = try RuntimeClass.define(uniqueName("RxTyped")) { c in
            try c.method("move:y:") { (this: RuntimeObject, x: Int32, y: Double) -> Bool in true }
        }
        let obj = cls.new()
        var seen: [(Int32, Double)] = []
        let subscription = obj.rx.methodInvoked("move:y:", as: (Int32, Double).self).subscribe(onNext: {
            seen.append($0)
        })
        defer { subscription.dispose() }
        let _: Bool = try obj.send("move:y:", Int32(3), 4.5)
        #expect(seen.count == 1)
        #expect(seen.first?.0 == 3)
        #expect(seen.first?.1 == 4.5)
    }

    @Test("a typed observable whose types do not match the method is an error")
    func typedMismatch() throws {
        let cls = try RuntimeClass.define(uniqueName("RxTypedBad")) { c in
            try c.method("move:y:") { (this: RuntimeObject, x: Int32, y: Double) in }
        }
        var received: InterceptionError?
        _ = cls.new().rx.sentMessage("move:y:", as: (Int, Double).self).subscribe(onError: {
            received = $0 as? InterceptionError
        })
        let error = try #require(received)
        #expect(caseName(error) == "typeMismatch")
        #expect("\(error)".contains("v@:id"))
        #expect("\(error)".contains("(q, d)"))
    }

    @Test(
        "every matrix type arrives through the one-type sentMessage(_:as:) and methodInvoked(_:as:) as the C caller passed it",
        arguments: MatrixCase.valueCases)
    func oneTypeObservablesOfEveryMatrixType(_ matrixCase: MatrixCase) throws {
        let type = try #require(matrixCase.swiftType)
        try type.checkTypedObservables(matrixCase)
    }

    @Test("the one-type and the one-element pack typed observables share one sink and see the same calls")
    func oneTypeAndPackFormsAgree() throws {
        let cls = try makeCounter("RxTypedForms", log: EventLog())
        let obj = cls.new()
        var single: [Int32] = []
        var pack: [Int32] = []
        let a = obj.rx.sentMessage("add:", as: Int32.self).subscribe(onNext: { single.append($0) })
        let b = packSentMessage(obj, "add:", Int32.self).subscribe(onNext: { pack.append($0) })
        defer {
            a.dispose()
            b.dispose()
        }
        for i: Int32 in [5, -7] {
            let _: Int32 = try obj.send("add:", i)
        }
        #expect(single == [5, -7])
        #expect(pack == [5, -7])
    }

    @Test("values lets for-await read an interception stream")
    func valuesAsAsyncSequence() async throws {
        let cls = try makeCounter("RxValues", log: EventLog())
        let box = ObjectBox(cls.new())
        let stream = box.object!.rx.sentMessage("add:", as: Int32.self).values
        let reader = Task {
            var seen: [Int32] = []
            for try await x in stream { seen.append(x) }
            return seen
        }
        // Wait until the reader has subscribed (its subscription intercepts add:, SPEC 17.1), then
        // call and let the object die (completing the stream). A fixed sleep failed under load.
        let deadline = ContinuousClock.now + .seconds(30)
        while ic_intercept_path_of(box.object!.pointer, Selector("add:").pointer) == IC_PATH_NONE,
            ContinuousClock.now < deadline
        {
            try await Task.sleep(nanoseconds: 1_000_000)
        }
        for i: Int32 in 1...3 {
            let _: Int32 = try box.object!.send("add:", i)
        }
        box.object = nil
        #expect(try await reader.value == [1, 2, 3])
    }
}

// ---- helpers ---------------------------------------------------------------------------------

/// A C function used as a method whose encoding cannot be called (the escape hatch).
private let rxNoop: @convention(c) (OpaquePointer?, OpaquePointer?) -> Void = { _, _ in }

/// The name of an InterceptionError's case.
private func caseName(_ error: InterceptionError) -> String {
    String(describing: error).isEmpty ? "" : Mirror(reflecting: error).children.first?.label ?? "\(error)"
}

/// A counter safe to increment from any thread.
private final class Counter: Sendable {
    private let storage = Atomic<Int>(0)
    func add() { storage.add(1, ordering: .relaxed) }
    var value: Int { storage.load(ordering: .relaxed) }
}

/// Holds an object handle so that a test can drop it from another thread or task.
private final class ObjectBox: @unchecked Sendable {
    // @unchecked: each test hands the box from one thread to the next in sequence.
    var object: RuntimeObject?
    init(_ object: RuntimeObject) { self.object = object }
}

private func currentThreadID() -> UInt64 {
    UInt64(pthread_self())
}

/// The pack form of the typed `sentMessage(_:as:)` (a literal one-type call picks the one-type
/// overload).
private func packSentMessage<each T: RuntimeValue>(
    _ object: RuntimeObject, _ selector: Selector, _ types: repeat (each T).Type
) -> Observable<(repeat each T)> {
    object.rx.sentMessage(selector, as: (repeat each T).self)
}

extension MatrixValue {
    /// Subscribes the one-type typed observables of both phases to `take:` (the case's C IMP)
    /// and checks that one call delivers the value the caller passed, field by field.
    static func checkTypedObservables(_ matrixCase: MatrixCase) throws {
        let raw = matrixCase.raw
        let cls = try RuntimeClass.define(uniqueName("RxTypedMatrix_\(matrixCase.name)")) { c in
            try c.method("take:", encoding: "v@:\(matrixCase.encoding)", imp: raw.take_imp)
        }
        let object = cls.new()
        var before: [Self] = []
        var after: [Self] = []
        let a = object.rx.sentMessage("take:", as: Self.self).subscribe(onNext: { before.append($0) })
        let b = object.rx.methodInvoked("take:", as: Self.self).subscribe(onNext: { after.append($0) })
        defer {
            a.dispose()
            b.dispose()
        }
        try object.send("take:", load(raw.sample))
        #expect(before.count == 1 && after.count == 1)
        for value in before + after {
            #expect(value.equals(raw.sample, in: matrixCase), "\(matrixCase.name)")
        }
    }
}
