import CInterception
@testable import Interception
import RxCore
import Synchronization
import Testing

// Area: hooks on dealloc (SPEC 16.4). Purpose: before hooks see the object whole; instead hooks
// get the original, which runs exactly once whatever they do (never leaked, never freed twice);
// after-dealloc hooks, per object and class-wide, run once the memory is freed, with the former
// address and the class, the object's after its class's and after its instead hooks; SwiftHook's
// and Aspects' dealloc scenarios.

/// A class whose dealloc logs "0", and one object of it.
private func deallocClass(_ base: String, log: EventLog, superclass: RuntimeClass = .root) throws
    -> RuntimeClass
{
    try RuntimeClass.define(uniqueName(base), superclass: superclass) { c in
        try c.dealloc { _ in log.append("0") }
    }
}

@Suite("Hooks on dealloc (SPEC 16.4)")
struct HookDeallocTests {
    @Test("SwiftHook's single-object scenario: before, instead (twice), after, in the SPEC 10.1 order")
    func singleObjectAllPositions() throws {
        let log = EventLog()
        let cls = try deallocClass("DeallocAll", log: log)
        do {
            let object = cls.new()
            try object.hookBefore("dealloc") { log.append("-1") }
            try object.hookDeallocBefore { _ in log.append("-2") }
            try object.hookInstead("dealloc") { (original: () -> Void, this: RuntimeObject) in
                log.append("-3")
                original()
                log.append("3")
            }
            try object.hookDeallocInstead { original, _ in
                log.append("-4")
                original()
                log.append("4")
            }
            try object.hookAfter("dealloc") { log.append("1") }
            try object.hookDeallocAfter { _, _ in log.append("2") }
            #expect(object.hooks.map(\.position) == [.before, .before, .instead, .instead, .after, .after])
            #expect(log.all == [])
        }
        #expect(log.all == ["-1", "-2", "-4", "-3", "0", "3", "4", "1", "2"])
    }

    @Test(
        "an instead hook that never calls the original does not leak the object; calling it twice frees it once"
    )
    func insteadNeverLeaksNorDoubleFrees() throws {
        let log = EventLog()
        let cls = try deallocClass("DeallocLeak", log: log)
        let liveBefore = cls.liveInstanceCount
        do {
            let object = cls.new()
            try object.hookDeallocInstead { _, _ in log.append("skipped the original") }
            try object.hookDeallocAfter { _, _ in log.append("freed") }
        }
        #expect(log.all == ["skipped the original", "0", "freed"])
        do {
            let object = cls.new()
            try object.hook("dealloc", .instead) { call in
                try call.callOriginal()
                try call.callOriginal()
                log.append("called twice")
            }
            try object.hookDeallocAfter { _, _ in log.append("freed once") }
        }
        #expect(log.all.suffix(3) == ["0", "called twice", "freed once"])
        #expect(cls.liveInstanceCount == liveBefore)
    }

    @Test("after-dealloc hooks get the former address and the class; a cancelled one does not run")
    func afterDeallocAddressAndClass() throws {
        let log = EventLog()
        let cls = try deallocClass("DeallocAddress", log: log)
        let seen = Locked<[(UInt, RuntimeClass)]>([])
        var address: UInt = 0
        do {
            let object = cls.new()
            address = UInt(bitPattern: object.pointer)
            try object.hookDeallocAfter { address, cls in
                seen.withLock { $0.append((UInt(bitPattern: address), cls)) }
            }
            let cancelled = try object.hookDeallocAfter { _, _ in log.append("cancelled ran") }
            #expect(cancelled.isActive)
            // One after-dealloc hook is left: not restored.
            #expect(cancelled.cancel() == HookCancellation(restored: false, keptForeignImplementation: false))
            #expect(!cancelled.isActive)
        }
        let calls = seen.withLock { $0 }
        #expect(calls.count == 1)
        #expect(calls.first?.0 == address)
        #expect(calls.first?.1 == cls)
        #expect(log.all == ["0"])
    }

    @Test("class-wide dealloc hooks run for every instance, made before or after, subclasses included")
    func classWide() throws {
        let log = EventLog()
        let cls = try deallocClass("DeallocClass", log: log)
        let sub = try plainClass("DeallocClassSub", superclass: cls)
        var early: RuntimeObject? = cls.new()
        let tokens = [
            try cls.hookDeallocBefore { this in
                log.append("before \(this.runtimeClass == sub ? "sub" : "base")")
            },
            try cls.hookDeallocInstead { original, _ in
                log.append("instead")
                original()
            },
            try cls.hookDeallocAfter { _, deadClass in
                log.append("after \(deadClass == sub ? "sub" : "base")")
            },
        ]
        early = nil
        #expect(log.all == ["before base", "instead", "0", "after base"])
        _ = early
        do { _ = sub.new() }
        #expect(log.all.suffix(4) == ["before sub", "instead", "0", "after sub"])
        #expect(cls.hooks.count == 3)
        #expect(cls.isHooked("dealloc"))
        for token in tokens { token.cancel() }
        #expect(!cls.isHooked("dealloc"))
        do { _ = cls.new() }
        #expect(log.all.last == "0")
    }

    @Test("layers: object before, class before, class instead, original, class after, object after")
    func objectAndClassLayers() throws {
        let log = EventLog()
        let cls = try deallocClass("DeallocLayers", log: log)
        let classTokens = [
            try cls.hookDeallocBefore { _ in log.append("class before") },
            try cls.hookDeallocInstead { original, _ in
                log.append("class instead")
                original()
                log.append("class instead end")
            },
            try cls.hookDeallocAfter { _, _ in log.append("class after") },
        ]
        defer { for token in classTokens { token.cancel() } }
        let deallocated = Atomic<Int>(0)
        do {
            let object = cls.new()
            try object.hookDeallocBefore { _ in log.append("object before") }
            try object.hookDeallocInstead { original, _ in
                log.append("object instead")
                original()
                log.append("object instead end")
            }
            try object.hookDeallocAfter { _, _ in log.append("object after") }
            _ = object.rx.deallocated.subscribe(onNext: { deallocated.add(1, ordering: .relaxed) })
        }
        #expect(
            log.all == [
                "object before", "object instead", "class before", "class instead", "0", "class instead end",
                "class after", "object instead end", "object after",
            ])
        #expect(deallocated.load(ordering: .relaxed) == 1)
    }

    @Test("after dealloc takes no receiver and no info form: refused with the hook's position")
    func afterDeallocRefusals() throws {
        let object = try plainClass("DeallocRefuse").new()
        let receiverForm = try #require(throws: InterceptionError.self) {
            try object.hookAfter("dealloc") { (this: RuntimeObject) in }
        }
        #expect(receiverForm == .forbiddenSelector(className: object.runtimeClass.name, selector: "dealloc"))
        #expect(throws: InterceptionError.self) { try object.hook("dealloc", .after) { _ in } }
        #expect(object.hooks.isEmpty)
    }

    @Test(
        "Aspects' scenario: a before hook on dealloc runs; a one-shot after-dealloc hook on a class runs once"
    )
    func aspectsAndOneShot() throws {
        let log = EventLog()
        let cls = try deallocClass("DeallocAspects", log: log)
        do {
            let object = cls.new()
            try object.hookBefore("dealloc") { (this: RuntimeObject) in log.append("before dealloc") }
        }
        #expect(log.all == ["before dealloc", "0"])
        let token = try cls.hookAfter("dealloc", oneShot: true) { log.append("first death") }
        do { _ = cls.new() }
        do { _ = cls.new() }
        #expect(log.all.filter { $0 == "first death" }.count == 1)
        #expect(!token.isActive)
    }
}
