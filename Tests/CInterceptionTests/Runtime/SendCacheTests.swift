import CInterception
import CInterceptionTestSupport
import Synchronization
import Testing

private let returns1: Int32IMP = { _, _ in 1 }
private let returns2: Int32IMP = { _, _ in 2 }

private func address(_ f: ic_imp?) -> UInt { unsafeBitCast(f, to: UInt.self) }

/// Entries published by these tests: the cache requires them to live for the rest of the
/// process, so they come from one buffer that is never freed (and stays reachable).
nonisolated(unsafe) private let entryStorage = UnsafeMutablePointer<ic_send_cache_entry>.allocate(
    capacity: 16)
private let entriesUsed = Atomic<Int>(0)

private func publishedEntry(_ cls: CLS, _ name: String, shape: UInt64, validated: ic_imp?) throws
    -> UnsafeMutablePointer<ic_send_cache_entry>
{
    let index = entriesUsed.add(1, ordering: .relaxed).oldValue
    precondition(index < 16, "SendCacheTests needs a bigger entry buffer")
    let entry = entryStorage + index
    entry.initialize(
        to: ic_send_cache_entry(cls: cls, sel: sel(name), shape: shape, validated_imp: validated))
    try #require(ic_send_cache_publish(entry))
    return entry
}

@Suite("Send cache (ic_send_cache.h)")
struct SendCacheTests {
    @Test("a lookup hits only while the receiver's class has the entry's validated IMP cached")
    func lookupHitsOnlyForTheValidatedCachedIMP() throws {
        let cls = try makeClass("SendCacheHit", methods: [("value", imp(returns1), "i@:")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        let first = imp(returns1)
        let entry = try publishedEntry(cls, "value", shape: 0x5EED, validated: first)
        #expect(ic_send_cache_find(cls, sel("value"), 0x5EED) == entry)
        #expect(ic_send_cache_find(cls, sel("value"), 0x5EEE) == nil)

        // Never sent: nothing cached, so no IMP and no entry (the cache never resolves).
        let cold = ic_send_cache_lookup(obj, sel("value"), 0x5EED)
        #expect(cold.imp == nil && cold.entry == nil)

        _ = ic_msg_lookup(obj, sel("value"))
        let hit = ic_send_cache_lookup(obj, sel("value"), 0x5EED)
        #expect(hit.entry == entry)
        #expect(address(hit.imp) == address(first))
        // Another shape: the IMP, no entry.
        let otherShape = ic_send_cache_lookup(obj, sel("value"), 0x5EEE)
        #expect(address(otherShape.imp) == address(first) && otherShape.entry == nil)

        // A replaced method: the dispatch cache is invalidated, then refilled with an IMP the
        // entry has not validated, so lookups miss until the binding validates it.
        #expect(ic_class_replace_method(cls, sel("value"), imp(returns2), "i@:", nil) == IC_OK)
        #expect(ic_send_cache_lookup(obj, sel("value"), 0x5EED).entry == nil)
        _ = ic_msg_lookup(obj, sel("value"))
        let stale = ic_send_cache_lookup(obj, sel("value"), 0x5EED)
        #expect(address(stale.imp) == address(imp(returns2)) && stale.entry == nil)
        #expect(ic_send_cache_set_validated_imp(entry, imp(returns2)))
        #expect(address(ic_send_cache_validated_imp(entry)) == address(imp(returns2)))
        let revalidated = ic_send_cache_lookup(obj, sel("value"), 0x5EED)
        #expect(revalidated.entry == entry && address(revalidated.imp) == address(imp(returns2)))
    }

    @Test("an object moved to another class finds that class's entries, not its old class's")
    func movedObjectFindsItsNewClassEntries() throws {
        let base = try makeClass("SendCacheBase", methods: [("value", imp(returns1), "i@:")])
        let sub = try makeClass("SendCacheSub", superclass: base)
        let obj = try #require(ic_class_create_instance(base))
        defer { ic_release(obj) }
        let baseEntry = try publishedEntry(base, "value", shape: 7, validated: imp(returns1))
        _ = ic_msg_lookup(obj, sel("value"))
        #expect(ic_send_cache_lookup(obj, sel("value"), 7).entry == baseEntry)

        #expect(ic_object_set_class(obj, sub) == base)
        _ = ic_msg_lookup(obj, sel("value"))  // caches the inherited IMP in the subclass
        let moved = ic_send_cache_lookup(obj, sel("value"), 7)
        #expect(address(moved.imp) == address(imp(returns1)))
        #expect(moved.entry == nil)  // the base's entry is keyed by the base
        let subEntry = try publishedEntry(sub, "value", shape: 7, validated: imp(returns1))
        #expect(ic_send_cache_lookup(obj, sel("value"), 7).entry == subEntry)
    }

    @Test("lookups racing method replacement and revalidation only hit an entry's validated IMP")
    func lookupsRacingReplacement() async throws {
        let cls = try makeClass("SendCacheRace", methods: [("value", imp(returns1), "i@:")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        let entry = try publishedEntry(cls, "value", shape: 99, validated: imp(returns1))
        let objBits = UInt(bitPattern: obj)
        let clsBits = UInt(bitPattern: cls)
        let entryBits = UInt(bitPattern: entry)
        let valid: Set<UInt> = [address(imp(returns1)), address(imp(returns2))]
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                let obj = OpaquePointer(bitPattern: objBits)!
                let entry = UnsafeMutablePointer<ic_send_cache_entry>(bitPattern: entryBits)!
                for round in 0..<2_000 {
                    let next = round % 2 == 0 ? imp(returns2) : imp(returns1)
                    _ = ic_class_replace_method(
                        OpaquePointer(bitPattern: clsBits), sel("value"), next, "i@:", nil)
                    ic_send_cache_set_validated_imp(entry, next)
                    _ = ic_msg_lookup(obj, sel("value"))
                }
                return true
            }
            for _ in 0..<2 {
                group.addTask {
                    let obj = OpaquePointer(bitPattern: objBits)!
                    var consistent = true
                    for _ in 0..<20_000 {
                        let hit = ic_send_cache_lookup(obj, sel("value"), 99)
                        if let found = hit.entry {
                            consistent = consistent && UInt(bitPattern: found) == entryBits
                            consistent = consistent && valid.contains(address(hit.imp))
                        }
                    }
                    return consistent
                }
            }
            for await consistent in group {
                #expect(consistent)
            }
        }
    }
}
