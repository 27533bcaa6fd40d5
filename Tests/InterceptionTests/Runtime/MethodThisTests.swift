import CInterception
@testable import Interception
import Synchronization
import Testing

/// Where method closures under test put the `this` they keep (strongly, weakly or unowned).
/// Guarded by the library's `Locked` (a pthread mutex, which ThreadSanitizer sees; a
/// `Synchronization.Mutex` is built on futexes it does not).
private final class Keeper: Sendable {
    private struct State {
        var strong: [RuntimeObject] = []
        var weak: [WeakBox] = []
        var unowned: [UnownedBox] = []
    }

    final class UnownedBox {
        unowned let handle: RuntimeObject
        init(_ handle: RuntimeObject) { self.handle = handle }
    }

    final class WeakBox {
        weak var handle: RuntimeObject?
        init(_ handle: RuntimeObject) { self.handle = handle }
    }

    private let state = Locked(State())

    func keep(_ handle: RuntimeObject) { state.withLock { $0.strong.append(handle) } }
    func keepWeakly(_ handle: RuntimeObject) { state.withLock { $0.weak.append(WeakBox(handle)) } }
    /// Keeps an unowned reference, never read: nothing keeps the handle itself alive after the
    /// call, so it must not be reused as a spare either.
    func keepUnowned(_ handle: RuntimeObject) { state.withLock { $0.unowned.append(UnownedBox(handle)) } }
    var unownedCount: Int { state.withLock { $0.unowned.count } }
    func dropUnowned() { state.withLock { $0.unowned.removeAll() } }
    var kept: [RuntimeObject] { state.withLock { $0.strong } }
    var weaklyKept: [RuntimeObject?] { state.withLock { $0.weak.map(\.handle) } }
    func dropStrong() { state.withLock { $0.strong.removeAll() } }
}

/// A class whose `touch:` keeps `this` as its argument says: 0 not at all, 1 strongly, 2 weakly,
/// 3 unowned;
/// `count` answers the receiver's retain count as seen inside the method.
private func keepingClass(_ keeper: Keeper, _ log: EventLog) throws -> RuntimeClass {
    try RuntimeClass.define(uniqueName("KeepsThis")) { c in
        try c.method("touch:") { (this: RuntimeObject, how: Int) -> Int in
            switch how {
            case 1: keeper.keep(this)
            case 2: keeper.keepWeakly(this)
            case 3: keeper.keepUnowned(this)
            default: break
            }
            return Int(bitPattern: UInt(bitPattern: this.pointer))
        }
        try c.method("retainCountInside") { (this: RuntimeObject) -> Int in this.retainCount }
        try c.dealloc { this in log.append("dealloc") }
    }
}

/// How a test reaches a Swift method: a send from Swift, which calls the typed body directly
/// (``SwiftMethodBody``), or a call of the method's C entry (the checked send path, which calls
/// the IMP through registers, as a C sender does).
enum MethodPath: CaseIterable, CustomStringConvertible {
    case swiftSend, cEntry

    var description: String { self == .swiftSend ? "send from Swift" : "C entry" }

    func touch(_ object: RuntimeObject, _ how: Int) throws -> Int {
        switch self {
        case .swiftSend: return try object.send("touch:", how)
        case .cEntry:
            return try object.sendChecked("touch:", SwiftSignature(Int.self).appending(Int.self), how)
        }
    }

    func retainCountInside(_ object: RuntimeObject) throws -> Int {
        switch self {
        case .swiftSend: return try object.send("retainCountInside")
        case .cEntry: return try object.sendChecked("retainCountInside", SwiftSignature(Int.self))
        }
    }
}

@Suite("Method closures: the `this` handle")
struct MethodThisTests {
    @Test(
        "`this` names the receiver and, like self in a method, adds no reference while the call runs",
        arguments: MethodPath.allCases)
    func thisIsBorrowedForTheCall(_ path: MethodPath) throws {
        let log = EventLog()
        let cls = try keepingClass(Keeper(), log)
        let object = cls.new()
        #expect(object.retainCount == 1)
        let inside = try path.retainCountInside(object)
        #expect(inside == 1)  // the sender's reference keeps it alive
        let address = try path.touch(object, 0)
        #expect(address == Int(bitPattern: UInt(bitPattern: object.pointer)))
        #expect(object.retainCount == 1)
    }

    @Test(
        "a `this` the closure keeps owns a reference: the object outlives its sender's handle",
        arguments: MethodPath.allCases)
    func keptThisOwnsAReference(_ path: MethodPath) throws {
        let log = EventLog()
        let keeper = Keeper()
        let cls = try keepingClass(keeper, log)
        do {
            let object = cls.new()
            _ = try path.touch(object, 1)
            #expect(object.retainCount == 2)
        }
        #expect(log.all.isEmpty)
        #expect(cls.liveInstanceCount == 1)
        #expect(keeper.kept.count == 1)
        #expect(keeper.kept[0].retainCount == 1)
        keeper.dropStrong()
        #expect(log.all == ["dealloc"])
        #expect(cls.liveInstanceCount == 0)
    }

    @Test(
        "handles kept from earlier calls keep naming their own objects after calls on others",
        arguments: MethodPath.allCases)
    func keptHandlesAreNeverReused(_ path: MethodPath) throws {
        let log = EventLog()
        let keeper = Keeper()
        let cls = try keepingClass(keeper, log)
        let objects = (0..<6).map { _ in cls.new() }
        // Interleave kept, weakly kept and unkept calls, so that spare handles are reused
        // between them.
        for (index, object) in objects.enumerated() {
            _ = try path.touch(object, index % 3)
            _ = try path.touch(objects[(index + 1) % objects.count], 0)
        }
        #expect(keeper.kept.map(\.pointer) == [objects[1].pointer, objects[4].pointer])
        // A weak reference to a `this` reads nil once the call is over (no strong reference
        // kept it), never another object.
        #expect(keeper.weaklyKept.allSatisfy { $0 == nil })
        #expect(keeper.weaklyKept.count == 2)
        for object in objects {
            _ = try path.touch(object, 0)
        }
        #expect(keeper.kept.map(\.pointer) == [objects[1].pointer, objects[4].pointer])
        #expect(objects.map(\.retainCount) == [1, 2, 1, 1, 2, 1])
    }

    @Test("a method that calls Swift methods on other objects gives each call its own `this`")
    func nestedCallsHaveTheirOwnThis() throws {
        let seen = Locked<[String]>([])
        let cls = try RuntimeClass.define(uniqueName("NestedThis")) { c in
            try c.method("visit:") { (this: RuntimeObject, other: RuntimeObject?) -> Void in
                let before = this.pointer
                if let other {
                    try? other.send("visit:", RuntimeObject?.none)
                }
                seen.withLock { $0.append(before == this.pointer ? "same" : "changed") }
            }
        }
        let outer = cls.new()
        let inner = cls.new()
        try outer.send("visit:", RuntimeObject?.some(inner))
        try outer.send("visit:", RuntimeObject?.some(outer))  // recursion on itself
        #expect(seen.withLock { $0 } == ["same", "same", "same", "same"])
        #expect(outer.retainCount == 1 && inner.retainCount == 1)
    }

    @Test("an object returned as `this` by its own method reaches the caller alive")
    func returningThis() throws {
        let cls = try RuntimeClass.define(uniqueName("ReturnsThis")) { c in
            try c.method("me") { (this: RuntimeObject) -> RuntimeObject? in this }
        }
        let object = cls.new()
        for _ in 0..<3 {
            let me: RuntimeObject? = try object.send("me")
            #expect(me == object)
        }
        #expect(object.retainCount == 1)
    }

    @Test(
        "a `this` kept unowned is not reused: it takes a reference and gives it back when it dies",
        arguments: MethodPath.allCases)
    func thisKeptUnowned(_ path: MethodPath) throws {
        let log = EventLog()
        let keeper = Keeper()
        let cls = try keepingClass(keeper, log)
        let object = cls.new()
        let other = cls.new()
        for _ in 0..<3 {
            #expect(try path.touch(object, 3) == Int(bitPattern: UInt(bitPattern: object.pointer)))
            // The handle died with the call (only an unowned reference is left), giving its
            // reference back; the next call on another object makes or reuses another handle.
            #expect(object.retainCount == 1)
            #expect(try path.touch(other, 0) == Int(bitPattern: UInt(bitPattern: other.pointer)))
        }
        #expect(keeper.unownedCount == 3)
        keeper.dropUnowned()
        #expect(log.all.isEmpty)
        #expect(object.retainCount == 1 && other.retainCount == 1)
    }

    @Test(
        "threads calling methods that keep `this` strongly, weakly, unowned or not at all stay consistent",
        arguments: MethodPath.allCases)
    func threadsKeepingThis(_ path: MethodPath) async throws {
        let log = EventLog()
        let keeper = Keeper()
        let cls = try keepingClass(keeper, log)
        let objects = (0..<8).map { _ in cls.new() }
        await withTaskGroup(of: Bool.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    var consistent = true
                    for round in 0..<2_000 {
                        let object = objects[(worker + round) % objects.count]
                        let how = round % 50 == 0 ? 1 : (round % 7 == 0 ? 2 : (round % 11 == 0 ? 3 : 0))
                        let address = (try? path.touch(object, how)) ?? 0
                        consistent =
                            consistent && address == Int(bitPattern: UInt(bitPattern: object.pointer))
                    }
                    return consistent
                }
            }
            for await consistent in group {
                #expect(consistent)
            }
        }
        do {
            let kept = keeper.kept
            #expect(kept.count == 4 * 40)
            #expect(kept.allSatisfy { handle in objects.contains(handle) })
            #expect(keeper.weaklyKept.allSatisfy { $0 == nil })
            let keptPerObject = Dictionary(grouping: kept, by: \.pointer).mapValues(\.count)
            for object in objects {
                #expect(object.retainCount == 1 + (keptPerObject[object.pointer] ?? 0))
            }
        }
        keeper.dropStrong()
        keeper.dropUnowned()
        #expect(objects.allSatisfy { $0.retainCount == 1 })
    }
}
