import CInterceptionTestSupport
import Interception
import Testing

@Suite("The SPEC's usage example")
struct UsageExampleTests {
    @Test("the usage example of SPEC §5 compiles and runs as written")
    func specExample() throws {
        // A C function returning a struct of two doubles (the test-support matrix's `make`).
        let someCFunctionPointer = try #require(MatrixCase.valueCases.first { $0.name == "struct_dd" }).raw
            .make_imp

        // ---- SPEC §5, verbatim ----
        let Counter = try RuntimeClass.define("Counter") { c in
            try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x + 1 }
            try c.method("reset") { (this: RuntimeObject) in }
            try c.method("origin", encoding: "{Point=dd}@:", imp: someCFunctionPointer)
        }
        let counter = Counter.new()
        let r: Int32 = try counter.send("add:", Int32(41))  // 42
        // ---- end of the example ----

        #expect(r == 42)
        try counter.send("reset")
        let origin: Point = try counter.send("origin")
        #expect(origin == Point(x: 1.5, y: -2.25))
        #expect(Counter.name == "Counter")
        #expect(RuntimeClass.named("Counter") == Counter)
    }
}
