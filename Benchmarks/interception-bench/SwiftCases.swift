// The benchmark cases whose hot loops are Swift (Swift API and rx bindings). Cases are added as
// the Swift layers land.
func swiftCases() -> [BenchCase] {
    []
}
