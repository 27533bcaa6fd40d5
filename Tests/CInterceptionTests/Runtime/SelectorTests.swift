import CInterception
import Testing

@Suite("Selectors")
struct SelectorTests {
    @Test("registering a name twice gives the same pointer")
    func registeringTwiceGivesSamePointer() {
        let a = ic_sel_register("selectorTests:same:")
        let b = ic_sel_register("selectorTests:same:")
        #expect(a != nil)
        #expect(a == b)
    }

    @Test("different names give different selectors")
    func differentNamesDiffer() {
        #expect(ic_sel_register("selectorTests.a") != ic_sel_register("selectorTests.b"))
    }

    @Test("a selector knows its name")
    func nameRoundTrips() {
        let s = ic_sel_register("selectorTests:name:")
        #expect(String(cString: ic_sel_name(s)) == "selectorTests:name:")
        #expect(ic_sel_name(nil) == nil)
    }

    @Test("lookup finds registered selectors only, without recording an error")
    func lookupFindsRegisteredOnly() {
        ic_error_clear()
        #expect(ic_sel_lookup("selectorTests.neverRegistered") == nil)
        #expect(ic_error_status() == IC_OK)
        let s = ic_sel_register("selectorTests.registered")
        #expect(ic_sel_lookup("selectorTests.registered") == s)
        #expect(ic_sel_lookup(nil) == nil)
    }

    @Test("empty and NULL names are refused with IC_ERR_INVALID_ARGUMENT")
    func emptyNamesAreRefused() {
        #expect(ic_sel_register("") == nil)
        #expect(ic_error_status() == IC_ERR_INVALID_ARGUMENT)
        #expect(ic_sel_register(nil) == nil)
        #expect(ic_error_status() == IC_ERR_INVALID_ARGUMENT)
        #expect(lastErrorMessage.contains("non-empty"))
    }

    @Test("the count grows with new names and not with repeated ones")
    func countGrowsWithNewNames() {
        let before = ic_sel_count()
        _ = ic_sel_register("selectorTests.count.\(before).unique")
        _ = ic_sel_register("selectorTests.count.\(before).unique")
        #expect(ic_sel_count() >= before + 1)
    }

    @Test("registration from many threads interns each name once")
    func concurrentRegistrationInternsOnce() async {
        let names = (0..<64).map { "selectorTests.concurrent.\($0)" }
        let results = await withTaskGroup(of: [UInt].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    names.map { UInt(bitPattern: ic_sel_register($0)) }
                }
            }
            var all: [[UInt]] = []
            for await r in group { all.append(r) }
            return all
        }
        for r in results { #expect(r == results[0]) }
    }
}
