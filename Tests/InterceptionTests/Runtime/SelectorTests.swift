import CInterception
import Interception
import Testing

@Suite("Selectors")
struct SelectorTests {
    @Test("a literal, a runtime-built name and the C registry give the same selector")
    func sameNameSameSelector() {
        let literal: Selector = "value:forKey:"
        let built = Selector(["value:", "forKey:"].joined())
        #expect(literal == built)
        #expect(literal.hashValue == built.hashValue)
        #expect(literal.pointer == ic_sel_register("value:forKey:"))
        #expect(Selector(pointer: literal.pointer) == literal)
        #expect(literal.name == "value:forKey:")
        #expect("\(literal)" == "value:forKey:")
        #expect(Selector("a") != Selector("b"))
    }

    @Test("many distinct literals, including colliding cache slots, each get their own selector")
    func literalCache() {
        let literals: [Selector] = [
            "a", "b", "c:", "d:e:", "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta",
            "iota", "kappa", "lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "tau", "upsilon",
        ]
        for _ in 0..<3 {
            let again: [Selector] = [
                "a", "b", "c:", "d:e:", "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta",
                "iota", "kappa", "lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "tau",
                "upsilon",
            ]
            #expect(again == literals)
            #expect(again.map(\.name) == literals.map(\.name))
        }
        #expect(Set(literals).count == literals.count)
    }

    @Test("literals resolve to the right selector from many threads at once")
    func concurrentLiterals() async {
        await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    (0..<1_000).allSatisfy { i in
                        let s: Selector = i.isMultiple(of: 2) ? "even:" : "odd:"
                        return s.name == (i.isMultiple(of: 2) ? "even:" : "odd:")
                    }
                }
            }
            for await ok in group {
                #expect(ok)
            }
        }
    }

    @Test("an empty selector name traps")
    func emptyNameTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Selector(String())
        }
    }
}
