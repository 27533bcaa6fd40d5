import Foundation
import RxCore
import Testing

// Scenarios of RxSwift 6.10.2's Observable+GroupByTests.swift.
extension RxCoreTests {
    @Suite("groupBy, RxSwift parity")
    struct GroupByParityTests {
        private let testError = TestError(1)

        private func words(_ scheduler: TestScheduler, end: Recorded<Event<String>>) -> TestableObservable<
            String
        > {
            scheduler.createHotObservable([
                .next(90, "abc"), .next(110, "zoo"), .next(130, "oof"), .next(220, "  foo"),
                .next(240, " FoO "),
                .next(270, "baR  "), .next(310, "foO "), .next(350, " Baz   "), .next(360, "  qux "),
                .next(390, "   bar"), .next(420, " BAR  "), .next(470, "FOO "), .next(480, "baz  "),
                .next(510, " bAZ "), .next(530, "    fOo    "), end, .next(580, "error"), .completed(600),
                .error(650, testError),
            ])
        }

        private static func key(_ word: String) -> String {
            word.lowercased().trimmingCharacters(in: .whitespaces)
        }

        @Test(
            "The groups are emitted as their keys first appear; the outer sequence completes with the source")
        func outerComplete() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = words(scheduler, end: .completed(570))
            var keyInvoked = 0
            let res = scheduler.start {
                xs.groupBy { x -> String in
                    keyInvoked += 1
                    if x == "error" { throw testError }
                    return Self.key(x)
                }.map { $0.key }
            }
            #expect(
                res.events == [
                    .next(220, "foo"), .next(270, "bar"), .next(350, "baz"), .next(360, "qux"),
                    .completed(570),
                ])
            #expect(xs.subscriptions == [Subscription(200, 570)])
            #expect(keyInvoked == 12)
        }

        @Test("Disposing the outer sequence with no group subscribed unsubscribes from the source")
        func outerDispose() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = words(scheduler, end: .completed(570))
            var keyInvoked = 0
            let res = scheduler.start(disposed: 355) {
                xs.groupBy { x -> String in
                    keyInvoked += 1
                    return Self.key(x)
                }.map { $0.key }
            }
            #expect(res.events == [.next(220, "foo"), .next(270, "bar"), .next(350, "baz")])
            #expect(xs.subscriptions == [Subscription(200, 355)])
            #expect(keyInvoked == 5)
        }

        @Test("A throwing key selector fails the outer sequence at that element")
        func outerKeySelectorThrows() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = words(scheduler, end: .completed(570))
            var keyInvoked = 0
            let res = scheduler.start {
                xs.groupBy { x -> String in
                    keyInvoked += 1
                    if keyInvoked == 10 { throw testError }
                    return Self.key(x)
                }.map { $0.key }
            }
            #expect(
                res.events == [
                    .next(220, "foo"), .next(270, "bar"), .next(350, "baz"), .next(360, "qux"),
                    .error(480, testError),
                ])
            #expect(xs.subscriptions == [Subscription(200, 480)])
            #expect(keyInvoked == 10)
        }

        private func runInner(
            _ scheduler: TestScheduler, _ xs: TestableObservable<String>, subscribeAfter delay: Int?
        ) -> [String: TestableObserver<String>] {
            var outerSubscription: Disposable?
            var innerSubscriptions: [String: Disposable] = [:]
            var results: [String: TestableObserver<String>] = [:]
            scheduler.scheduleAt(200) {
                outerSubscription = xs.groupBy { x -> String in
                    if x == "error" { throw TestError(1) }
                    return Self.key(x)
                }
                .subscribe(onNext: { group in
                    let result = scheduler.createObserver(String.self)
                    results[group.key] = result
                    if let delay {
                        innerSubscriptions[group.key] = scheduler.scheduleRelative(
                            (), dueTime: .seconds(delay)
                        ) { _ in
                            group.subscribe(result)
                        }
                    } else {
                        innerSubscriptions[group.key] = group.subscribe(result)
                    }
                })
            }
            scheduler.scheduleAt(1000) {
                outerSubscription?.dispose()
                for (_, disposable) in innerSubscriptions { disposable.dispose() }
                innerSubscriptions = [:]
            }
            scheduler.start()
            return results
        }

        @Test("A group subscribed later gets the elements from then on, and the source's completion")
        func innerComplete() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = words(scheduler, end: .completed(570))
            let results = runInner(scheduler, xs, subscribeAfter: 100)
            #expect(results.count == 4)
            #expect(
                results["foo"]?.events == [.next(470, "FOO "), .next(530, "    fOo    "), .completed(570)])
            #expect(results["bar"]?.events == [.next(390, "   bar"), .next(420, " BAR  "), .completed(570)])
            #expect(results["baz"]?.events == [.next(480, "baz  "), .next(510, " bAZ "), .completed(570)])
            #expect(results["qux"]?.events == [.completed(570)])
            #expect(xs.subscriptions == [Subscription(200, 570)])
        }

        @Test("Groups subscribed at once get all their elements")
        func innerCompleteAll() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = words(scheduler, end: .completed(570))
            let results = runInner(scheduler, xs, subscribeAfter: nil)
            #expect(
                results["foo"]?.events == [
                    .next(220, "  foo"), .next(240, " FoO "), .next(310, "foO "), .next(470, "FOO "),
                    .next(530, "    fOo    "), .completed(570),
                ])
            #expect(results["qux"]?.events == [.next(360, "  qux "), .completed(570)])
            #expect(xs.subscriptions == [Subscription(200, 570)])
        }

        @Test("The source's error reaches every group")
        func innerError() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = words(scheduler, end: .error(570, testError))
            let results = runInner(scheduler, xs, subscribeAfter: 100)
            #expect(
                results["foo"]?.events == [
                    .next(470, "FOO "), .next(530, "    fOo    "), .error(570, testError),
                ])
            #expect(results["qux"]?.events == [.error(570, testError)])
            #expect(xs.subscriptions == [Subscription(200, 570)])
        }

        @Test("Disposing the outer subscription keeps the source while a group is subscribed")
        func outerDisposedGroupAlive() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = words(scheduler, end: .completed(570))
            var outer: Disposable?
            var inner: Disposable?
            let res = scheduler.createObserver(String.self)
            scheduler.scheduleAt(200) {
                outer = xs.groupBy { Self.key($0) }.subscribe(onNext: { group in
                    if group.key == "foo" { inner = group.subscribe(res) }
                })
            }
            scheduler.scheduleAt(300) { outer?.dispose() }
            scheduler.scheduleAt(500) { inner?.dispose() }
            scheduler.start()
            #expect(
                res.events == [
                    .next(220, "  foo"), .next(240, " FoO "), .next(310, "foO "), .next(470, "FOO "),
                ])
            #expect(xs.subscriptions == [Subscription(200, 500)])
        }
    }
}
