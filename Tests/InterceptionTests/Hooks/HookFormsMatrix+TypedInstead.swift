import CInterception
import CInterceptionTestSupport
@testable import Interception
import Testing

// Area: typed instead hooks (TypedHooks.swift) over the type matrix, at every place. Purpose:
// their `original` calls the method straight from registers when the engine's fast path would
// (HookDirectOriginal.swift) and through ic_hook_call_original otherwise (a libffi closure's
// frame, structs, narrow arguments on x86-64, an inner instead hook): either way the argument it
// passes reaches the method, any number of times, the method's result comes back to it, after
// hooks see the argument it passed last, a hook that throws after calling it leaves the method's
// result as the call's, and two instead hooks nest (the outer one's original runs the inner).

extension EventLog {
    /// Notes `what` unless `ok` (checks inside hooks, read once the calls are done).
    fileprivate func check(_ ok: Bool, _ what: String) {
        if !ok { append(what) }
    }
}

/// What the hooks of these tests throw: the receiver's address, so that each case counts its
/// own (the error handler is process-wide and cases run in parallel).
private struct TypedInsteadBoom: Error {
    let receiver: UInt
}

extension MatrixValue {
    /// Typed instead hooks on `echo:` (one alone, then nested) and `take:`.
    static func checkTypedInstead(_ hooked: HookedCase) throws {
        let matrixCase = hooked.matrixCase
        let fixture = try MatrixHookFixture(hooked)
        let receiver = fixture.receiver
        let failures = EventLog()
        let throwing = Locked(false)
        let thrown = Locked(0)
        let receiverPointer = UInt(bitPattern: receiver.pointer)
        let errorHandler = HookErrorHandlers.add { error in
            if (error.error as? TypedInsteadBoom)?.receiver == receiverPointer { thrown.withLock { $0 += 1 } }
        }
        defer { errorHandler.cancel() }

        // The innermost hook: calls the method twice with another argument; returns `sample`.
        let inner = try fixture.target.hookInstead("echo:") {
            (original: (Self) -> Self, this: RuntimeObject, a: Self) throws -> Self in
            failures.check(a.equals(matrixCase.raw.sample, in: matrixCase), "the caller's argument")
            failures.check(
                original(load(matrixCase.raw.other)).equals(matrixCase.raw.other, in: matrixCase),
                "first call")
            let result = original(load(matrixCase.raw.other))
            failures.check(result.equals(matrixCase.raw.other, in: matrixCase), "second call")
            if throwing.withLock({ $0 }) { throw TypedInsteadBoom(receiver: receiverPointer) }
            return load(matrixCase.raw.sample)
        }
        let after = try fixture.target.hookAfter("echo:") { (this: RuntimeObject, a: Self) in
            failures.check(
                a.equals(matrixCase.raw.other, in: matrixCase), "after hooks see the argument passed last")
        }
        var result: Self = try receiver.send("echo:", load(matrixCase.raw.sample))
        #expect(result.equals(matrixCase.raw.sample, in: matrixCase), "the hook's result")
        throwing.withLock { $0 = true }
        result = try receiver.send("echo:", load(matrixCase.raw.sample))
        #expect(result.equals(matrixCase.raw.other, in: matrixCase), "thrown after the original: its result")

        // An outer hook passes the caller's argument on: its original is the inner hook.
        let outer = try fixture.target.hookInstead("echo:") {
            (original: (Self) -> Self, this: RuntimeObject, a: Self) -> Self in
            original(a)
        }
        result = try receiver.send("echo:", load(matrixCase.raw.sample))
        #expect(result.equals(matrixCase.raw.other, in: matrixCase), "nested, the inner one threw")
        throwing.withLock { $0 = false }
        result = try receiver.send("echo:", load(matrixCase.raw.sample))
        #expect(result.equals(matrixCase.raw.sample, in: matrixCase), "nested: the inner hook's result")
        #expect(thrown.withLock { $0 } == 2)

        let taken = try fixture.target.hookInstead("take:") {
            (original: (Self) -> Void, this: RuntimeObject, a: Self) in
            original(load(matrixCase.raw.other))
        }
        try receiver.send("take:", load(matrixCase.raw.sample))
        #expect(
            load(ict_taken()).equals(matrixCase.raw.other, in: matrixCase), "take: got the hook's argument")

        for token in [inner, after, outer, taken] { #expect(token.cancel() != nil) }
        result = try receiver.send("echo:", load(matrixCase.raw.sample))
        #expect(result.equals(matrixCase.raw.sample, in: matrixCase), "the method is back")
        #expect(failures.all == [])
    }
}
