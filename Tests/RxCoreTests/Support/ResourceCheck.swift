import RxCore
import Testing

/// Checks that every test releases what it created: the resources (observables, sinks, observers
/// and disposables) the test creates are counted in a scope of its own, which must be back to
/// zero when the test ends. A per-test scope rather than the global `Resources.total`, because
/// other suites of the package (the Interception bindings) use RxCore in parallel in the same
/// process. Only active in debug builds, where RxCore is built with `TRACE_RESOURCES`.
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
            let scope = Resources.Scope()
            try await Resources.$currentScope.withValue(scope) {
                try await function()
            }
            // Sequences delivered on dispatch-queue schedulers release their sinks on their own
            // queue, just after the last event the test waited for: give such releases a bounded
            // moment (a real leak stays above zero and still fails).
            var left = scope.total
            for _ in 0..<200 where left != 0 {
                try await Task.sleep(for: .milliseconds(10))
                left = scope.total
            }
            #expect(left == 0, "\(left) resources created by the test were not released")
        #else
            try await function()
        #endif
    }
}

extension Trait where Self == ResourceCheck {
    /// Checks that `Resources.total` returns to its starting value after each test.
    static var checksResources: ResourceCheck { ResourceCheck() }
}
