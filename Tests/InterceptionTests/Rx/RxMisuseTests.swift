import CInterception
@testable import Interception
import Testing

/// Misuse of the rx bindings (issue 8's bad-input list): disposing from inside onNext, disposing
/// twice, subscribers that re-enter the observed method. None may crash, lose or duplicate an
/// event. (Releases from inside dealloc are pinned down at the C level, in MisuseTests.)
@Suite("rx bindings: misuse")
struct RxMisuseTests {
    @Test(
        "a subscription disposed from inside its own onNext receives nothing more; the method keeps running",
        arguments: [false, true])
    func disposeInsideOnNext(invoked: Bool) throws {
        let log = EventLog()
        let obj = try makeCounter("RxDisposeInside", log: log).new()
        let stream = invoked ? obj.rx.methodInvoked("add:") : obj.rx.sentMessage("add:")
        let subscription = SingleAssignmentDisposable()
        subscription.setDisposable(
            stream.subscribe(onNext: { args in
                log.append("event \(args)")
                subscription.dispose()
            }))
        for x in Int32(1)...3 {
            let r: Int32 = try obj.send("add:", x)
            #expect(r == x + 1)
        }
        let originals = ["original add: 1", "original add: 2", "original add: 3"]
        #expect(
            log.all == (invoked ? [originals[0], "event [1]"] : ["event [1]", originals[0]])
                + originals.dropFirst())
    }

    @Test("disposing a subscription twice is harmless and leaves other subscribers receiving")
    func doubleDispose() throws {
        let log = EventLog()
        let obj = try makeCounter("RxDoubleDispose", log: log).new()
        let first = obj.rx.sentMessage("add:").subscribe(onNext: { log.append("first \($0)") })
        let second = obj.rx.sentMessage("add:").subscribe(onNext: { log.append("second \($0)") })
        first.dispose()
        first.dispose()
        let _: Int32 = try obj.send("add:", Int32(5))
        #expect(log.all == ["second [5]", "original add: 5"])
        second.dispose()
        second.dispose()
        let _: Int32 = try obj.send("add:", Int32(6))
        #expect(log.all == ["second [5]", "original add: 5", "original add: 6"])
    }

    @Test(
        "a subscriber that re-enters the observed method sees each call once; the nested event is queued behind the current one",
        arguments: [false, true])
    func reentrantSubscriber(invoked: Bool) throws {
        let log = EventLog()
        let obj = try makeCounter("RxReenter", log: log).new()
        let stream = invoked ? obj.rx.methodInvoked("add:") : obj.rx.sentMessage("add:")
        let bag = DisposeBag()
        stream.subscribe(onNext: { args in
            log.append("event \(args)")
            if let x = args.first as? Int32, x > 0 {
                let _: Int32? = try? obj.send("add:", x - 100)
            }
        }).disposed(by: bag)
        let r: Int32 = try obj.send("add:", Int32(7))
        #expect(r == 8)
        if invoked {
            #expect(log.all == ["original add: 7", "event [7]", "original add: -93", "event [-93]"])
        } else {
            // Subjects deliver one event at a time (README, "How it differs from RxCocoa"): the
            // nested call's event waits for the outer onNext to return, so it comes after the
            // nested call's original, yet still before the outer call's original.
            #expect(log.all == ["event [7]", "original add: -93", "event [-93]", "original add: 7"])
        }
    }
}
