import RxCore
import Testing

// Scenarios of RxSwift 6.10.2's ReplaySubjectTest.swift, with its API names.
extension RxCoreTests {
    @Suite("subjects, RxSwift parity")
    struct SubjectsParityTests {
        private let testError = TestError(1)

        @Test(
            "ReplaySubject.createUnbounded replays every element, then the terminal event, to a late subscriber"
        )
        func createUnboundedReplaysEverything() {
            let scheduler = TestScheduler(initialClock: 0)
            var subject: ReplaySubject<Int>?
            var subscription: Disposable?
            let result = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(100) { subject = ReplaySubject.createUnbounded() }
            for (offset, time) in [150, 200, 250, 300, 350].enumerated() {
                scheduler.scheduleAt(time) { subject?.onNext(offset + 1) }
            }
            scheduler.scheduleAt(400) { subject?.onCompleted() }
            scheduler.scheduleAt(450) { subscription = subject?.subscribe(result) }
            scheduler.scheduleAt(550) { subscription?.dispose() }
            scheduler.start()
            #expect(
                result.events == [
                    .next(450, 1), .next(450, 2), .next(450, 3), .next(450, 4), .next(450, 5),
                    .completed(450),
                ])
            subject = nil
            subscription = nil
        }

        @Test("A bounded replay subject subscribed after an error replays its buffer, then the error")
        func subscribingAfterError() {
            let scheduler = TestScheduler(initialClock: 0)
            var subject: ReplaySubject<Int>?
            var subscription: Disposable?
            let result = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(100) { subject = ReplaySubject.create(bufferSize: 3) }
            for (offset, time) in [150, 200, 250, 300, 350].enumerated() {
                scheduler.scheduleAt(time) { subject?.onNext(offset + 1) }
            }
            scheduler.scheduleAt(400) { subject?.onError(testError) }
            scheduler.scheduleAt(450) { subscription = subject?.subscribe(result) }
            scheduler.scheduleAt(550) { subscription?.dispose() }
            scheduler.start()
            #expect(result.events == [.next(450, 3), .next(450, 4), .next(450, 5), .error(450, testError)])
            subject = nil
            subscription = nil
        }

        @Test("hasObservers follows the subscriptions of a replay subject")
        func hasObservers() {
            let subject = ReplaySubject<Int>.create(bufferSize: 1)
            #expect(!subject.hasObservers)
            let first = subject.subscribe { _ in }
            let second = subject.subscribe { _ in }
            #expect(subject.hasObservers)
            first.dispose()
            #expect(subject.hasObservers)
            second.dispose()
            #expect(!subject.hasObservers)
        }
    }
}

extension RxCoreTests {
    @Suite("RxSwift 6 deprecated operator names")
    struct DeprecatedRenamesParityTests {
        @Test(
            "takeWhile, takeUntil, skipWhile and skipUntil are take(while:), take(until:), skip(while:) and skip(until:)"
        )
        func takeAndSkipRenames() {
            let events = (DeprecatedAliases() as any DeprecatedAliasCalls).takeAndSkipAliasEvents()
            #expect(
                events == [
                    [.next(1), .next(2), .completed],
                    [.next(1), .next(2), .next(3), .next(4), .completed],
                    [.next(1), .next(2), .completed],
                    [.next(3), .next(4), .completed],
                    [.next(1), .next(2), .next(3), .next(4), .completed],
                ])
        }

        @Test("take(_:scheduler:) is take(for:scheduler:) and Observable.catchError(_:) is catch(sequence:)")
        func takeForAndCatchSequenceRenames() {
            let (take, catchSequence) = (DeprecatedAliases() as any DeprecatedAliasCalls)
                .takeForAndCatchSequenceAliasEvents()
            #expect(take == [.next(210, 1), .next(220, 2), .completed(225)])
            #expect(catchSequence == [.next(1), .next(2), .completed])
        }
    }
}
