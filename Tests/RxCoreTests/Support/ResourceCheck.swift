import RxCore
import Testing

/// Checks that every test releases what it created: `Resources.total` (RxCore's debug counter of
/// observables, sinks, observers and disposables) must be back to its starting value when the
/// test ends. Only active in debug builds, where RxCore is built with `TRACE_RESOURCES`.
struct ResourceCheck: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func scopeProvider(for test: Test, testCase: Test.Case?) -> ResourceCheck? {
        // One scope per test case; suites themselves are not measured.
        test.isSuite || testCase == nil ? nil : self
    }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        #if TRACE_RESOURCES
            let before = Resources.total
            try await function()
            let after = Resources.total
            #expect(
                after == before,
                "Resources.total went from \(before) to \(after): a resource was not released")
        #else
            try await function()
        #endif
    }
}

extension Trait where Self == ResourceCheck {
    /// Checks that `Resources.total` returns to its starting value after each test.
    static var checksResources: ResourceCheck { ResourceCheck() }
}
