import RxCore
import Testing

extension RxCoreTests {
    @Suite("flatMap")
    struct FlatMapTests {
        @Test("FlatMap over synchronous sources interleaves them in RxSwift's trampoline order")
        func trampolineOrder() {
            // Each element of `of` is emitted by its own action on the current-thread trampoline,
            // so the outer and inner emissions alternate: RxSwift prints 1 10 2 20 3 30.
            let events = synchronousEvents(of: Observable.of(1, 2, 3).flatMap { Observable.of($0, $0 * 10) })
            #expect(events == [.next(1), .next(10), .next(2), .next(20), .next(3), .next(30), .completed])
        }

        @Test("FlatMap of three-element inner sequences follows the trampoline queue order")
        func trampolineOrderWithLongerInners() {
            let events = synchronousEvents(
                of: Observable.of(1, 2).flatMap { Observable.of($0, $0 * 10, $0 * 100) })
            #expect(
                events == [.next(1), .next(10), .next(2), .next(100), .next(20), .next(200), .completed])
        }

        @Test("FlatMap merges inner sequences as they emit and completes when all are done")
        func mergesInnerSequences() {
            let scheduler = TestScheduler(initialClock: 0)
            let first = scheduler.createColdObservable([.next(10, "a1"), .next(30, "a2"), .completed(40)])
            let second = scheduler.createColdObservable([.next(5, "b1"), .next(30, "b2"), .completed(50)])
            let source = scheduler.createHotObservable([.next(210, 0), .next(220, 1), .completed(230)])
            let observer = scheduler.start {
                source.flatMap { $0 == 0 ? first : second }
            }
            #expect(
                observer.events == [
                    .next(220, "a1"), .next(225, "b1"), .next(240, "a2"), .next(250, "b2"), .completed(270),
                ])
            #expect(first.subscriptions == [Subscription(210, 250)])
            #expect(second.subscriptions == [Subscription(220, 270)])
        }

        @Test("An error in an inner sequence of flatMap terminates the result and disposes everything")
        func innerErrorTerminates() {
            let scheduler = TestScheduler(initialClock: 0)
            let inner = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1), Int.self)])
            let source = scheduler.createHotObservable([.next(210, 0)])
            let observer = scheduler.start { source.flatMap { _ in inner } }
            #expect(observer.events == [.next(220, 1), .error(230, TestError(1))])
            #expect(source.subscriptions == [Subscription(200, 230)])
        }

        @Test("flatMap disposes a completed inner at once; on dispose, the source then live inners in order")
        func disposalOrder() {
            var log: [String] = []
            let source = PublishSubject<Int>()
            let completer = PublishSubject<Int>()
            func logged(_ name: String, _ upstream: Observable<Int>) -> Observable<Int> {
                Observable.create { observer in
                    let subscription = upstream.subscribe(observer)
                    return Disposables.create {
                        log.append(name)
                        subscription.dispose()
                    }
                }
            }
            var received: [Int] = []
            let subscription = logged("source", source.asObservable())
                .flatMap { element -> Observable<Int> in
                    switch element {
                    case 1: return logged("1", completer.asObservable())
                    case 3: return logged("3", Observable.just(3))
                    default: return logged("\(element)", Observable.never())
                    }
                }
                .subscribe(onNext: { received.append($0) })
            for element in 0..<4 {
                source.onNext(element)
            }
            #expect(log == ["3"])
            completer.onCompleted()
            #expect(log == ["3", "1"])
            subscription.dispose()
            #expect(log == ["3", "1", "source", "0", "2"])
            source.onNext(4)
            #expect(log == ["3", "1", "source", "0", "2"])
            #expect(received == [3])
        }

        @Test("The inner sequences of flatMap emitting from several threads are delivered one at a time")
        func concurrentInnerSequencesDoNotOverlap() {
            let subjects = (0..<4).map { _ in PublishSubject<Int>() }
            let recorder = EventRecorder<Int>()
            let subscription = Observable.from(subjects).flatMap { $0 }.subscribe(recorder)
            let shared = Unchecked(subjects)
            runConcurrently(threads: 4) { thread in
                for index in 0..<1_000 {
                    shared.value[thread].onNext(index)
                }
                shared.value[thread].onCompleted()
            }
            #expect(recorder.overlaps == 0)
            #expect(recorder.elements.count == 4_000)
            #expect(recorder.events.last == .completed)
            #expect(recorder.grammarHolds)
            subscription.dispose()
        }
        @Test("FlatMap into just delivers each element and completes once the source has")
        func flatMapIntoJust() {
            let subject = PublishSubject<Int>()
            let recorder = EventRecorder<Int>()
            let subscription = subject.flatMap { Observable.just($0 * 10) }.subscribe(recorder)
            subject.onNext(1)
            subject.onNext(2)
            #expect(recorder.events == [.next(10), .next(20)])
            subject.onCompleted()
            #expect(recorder.events == [.next(10), .next(20), .completed])
            subscription.dispose()
        }

        @Test("ConcatMap runs a waiting just inner sequence when the active one completes")
        func concatMapWaitingJust() {
            let subject = PublishSubject<Int>()
            let first = PublishSubject<Int>()
            let recorder = EventRecorder<Int>()
            let subscription = subject.concatMap { $0 == 0 ? first.asObservable() : Observable.just($0) }
                .subscribe(recorder)
            subject.onNext(0)
            subject.onNext(1)
            subject.onNext(2)
            subject.onCompleted()
            #expect(recorder.events.isEmpty)
            first.onNext(7)
            first.onCompleted()
            #expect(recorder.events == [.next(7), .next(1), .next(2), .completed])
            subscription.dispose()
        }

        @Test("Disposing flatMap from the element of a just inner sequence stops everything")
        func disposeFromJustElement() {
            let subject = PublishSubject<Int>()
            var received: [Int] = []
            var subscription: Disposable?
            subscription = subject.flatMap { Observable.just($0) }.subscribe(onNext: {
                received.append($0)
                subscription?.dispose()
            })
            subject.onNext(1)
            subject.onNext(2)
            #expect(received == [1])
            #expect(!subject.hasObservers)
        }

        @Test("FlatMapFirst takes every just inner sequence: each has ended before the next element")
        func flatMapFirstIntoJust() {
            let events = synchronousEvents(of: Observable.of(1, 2, 3).flatMapFirst { Observable.just($0) })
            #expect(events == [.next(1), .next(2), .next(3), .completed])
        }
    }
}
