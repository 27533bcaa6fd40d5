#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import RxCore
import Synchronization
import Testing

extension RxCoreTests {
    @Suite("combineLatest")
    struct CombineLatestTests {
        @Test("CombineLatest emits the latest of each source once all have emitted")
        func emitsLatestValues() {
            let scheduler = TestScheduler(initialClock: 0)
            let numbers = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(260)])
            let letters = scheduler.createHotObservable([.next(220, "a"), .next(240, "b"), .completed(250)])
            let observer = scheduler.start {
                Observable.combineLatest(numbers, letters) { "\($0)\($1)" }
            }
            #expect(
                observer.events == [.next(220, "1a"), .next(230, "2a"), .next(240, "2b"), .completed(260)])
        }

        @Test("CombineLatest without a result selector emits tuples")
        func emitsTuples() {
            let first = BehaviorSubject(value: 1)
            let second = BehaviorSubject(value: "x")
            var received: [String] = []
            let subscription = Observable.combineLatest(first, second).subscribe(onNext: {
                received.append("\($0)-\($1)")
            })
            first.onNext(2)
            second.onNext("y")
            #expect(received == ["1-x", "2-x", "2-y"])
            subscription.dispose()
        }

        @Test("CombineLatest accepts up to eight sources of different types")
        func eightSources() {
            let events = synchronousEvents(
                of: Observable.combineLatest(
                    Observable.just(1), Observable.just("2"), Observable.just(3.0), Observable.just(true),
                    Observable.just(5), Observable.just(6), Observable.just(7), Observable.just(8)
                ) { a, b, c, d, e, f, g, h in "\(a)\(b)\(c)\(d)\(e)\(f)\(g)\(h)" })
            #expect(events == [.next("123.0true5678"), .completed])
        }

        @Test("CombineLatest of a collection emits arrays or the result of a selector")
        func collections() {
            let sources = [Observable.just(1), Observable.just(2), Observable.just(3)]
            #expect(
                synchronousEvents(of: Observable.combineLatest(sources)) == [.next([1, 2, 3]), .completed])
            #expect(
                synchronousEvents(of: Observable.combineLatest(sources) { $0.reduce(0, +) })
                    == [.next(6), .completed])
        }

        @Test("An error of any source terminates combineLatest")
        func errorTerminates() {
            let scheduler = TestScheduler(initialClock: 0)
            let first = scheduler.createHotObservable([.next(210, 1)])
            let second = scheduler.createHotObservable([.error(220, TestError(1), Int.self)])
            let observer = scheduler.start { Observable.combineLatest(first, second) { $0 + $1 } }
            #expect(observer.events == [.error(220, TestError(1))])
            #expect(first.subscriptions == [Subscription(200, 220)])
        }

        // Two sources take their own sink (Observable+CombineLatest2.swift); these pin its
        // termination rules to those of the collection form, which serves every other arity.

        @Test("CombineLatest of two completes when a source that never emitted is done and the other emits")
        func twoSourcesCompleteWhenOneIsEmpty() {
            let scheduler = TestScheduler(initialClock: 0)
            let empty = scheduler.createHotObservable([.next(150, 1), .completed(210)])
            let other = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
            let two = scheduler.start { Observable.combineLatest(empty, other) { $0 + $1 } }
            #expect(two.events == [.completed(215)])
            #expect(empty.subscriptions == [Subscription(200, 210)])
            #expect(other.subscriptions == [Subscription(200, 215)])

            let collectionScheduler = TestScheduler(initialClock: 0)
            let collectionEmpty = collectionScheduler.createHotObservable([.next(150, 1), .completed(210)])
            let collectionOther = collectionScheduler.createHotObservable([
                .next(150, 1), .next(215, 2), .completed(220),
            ])
            let collection = collectionScheduler.start {
                Observable.combineLatest([collectionEmpty.asObservable(), collectionOther.asObservable()]) {
                    $0[0] + $0[1]
                }
            }
            #expect(collection.events == two.events)
        }

        @Test("CombineLatest of two completes once both sources completed, whichever order")
        func twoSourcesCompleteWhenBothAreDone() {
            let scheduler = TestScheduler(initialClock: 0)
            let first = scheduler.createHotObservable([.next(210, 1), .completed(230)])
            let second = scheduler.createHotObservable([.next(220, 2), .next(240, 3), .completed(250)])
            let observer = scheduler.start { Observable.combineLatest(first, second) { $0 * 10 + $1 } }
            #expect(observer.events == [.next(220, 12), .next(240, 13), .completed(250)])
            #expect(first.subscriptions == [Subscription(200, 230)])
            #expect(second.subscriptions == [Subscription(200, 250)])
        }

        @Test("A throwing result selector of two sources fails combineLatest and unsubscribes both")
        func twoSourcesSelectorThrows() {
            let scheduler = TestScheduler(initialClock: 0)
            let first = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
            let second = scheduler.createHotObservable([.next(220, 1)])
            let observer = scheduler.start {
                Observable.combineLatest(first, second) { a, b -> Int in
                    if a == 2 { throw TestError(2) }
                    return a + b
                }
            }
            #expect(observer.events == [.next(220, 2), .error(230, TestError(2))])
            #expect(first.subscriptions == [Subscription(200, 230)])
            #expect(second.subscriptions == [Subscription(200, 230)])
        }

        @Test("Disposing combineLatest of two stops the tuples and releases both subscriptions")
        func twoSourcesDispose() {
            let first = PublishSubject<Int>()
            let second = PublishSubject<String>()
            var received: [String] = []
            let subscription = Observable.combineLatest(first, second).subscribe(onNext: {
                received.append("\($0)\($1)")
            })
            first.onNext(1)
            second.onNext("a")
            subscription.dispose()
            first.onNext(2)
            #expect(received == ["1a"])
            #expect(!first.hasObservers && !second.hasObservers)
        }

        @Test("CombineLatest of two handles an element its observer sends into a source during a delivery")
        func twoSourcesReentrantElement() {
            let first = PublishSubject<Int>()
            let second = PublishSubject<String>()
            var received: [String] = []
            let subscription = Observable.combineLatest(first, second).subscribe(onNext: { number, letter in
                received.append("\(number)\(letter)")
                // Nested: the sink's lock is recursive, so this is combined and delivered before
                // the outer delivery returns, with the latest of the other source.
                if number == 1 && letter == "a" { first.onNext(2) }
                if number == 2 && letter == "a" { second.onNext("b") }
            })
            first.onNext(1)
            second.onNext("a")
            #expect(received == ["1a", "2a", "2b"])
            first.onNext(3)
            #expect(received == ["1a", "2a", "2b", "3b"])
            subscription.dispose()
        }

        @Test(
            "CombineLatest of two combines an element its selector sends into a source before the current result"
        )
        func twoSourcesSelectorSendsIntoSource() {
            let first = PublishSubject<Int>()
            let second = PublishSubject<Int>()
            var sent = false
            let recorder = EventRecorder<Int>()
            let subscription = Observable.combineLatest(first, second) { a, b -> Int in
                if !sent {
                    sent = true
                    // Nested, combined with the latest `second` and delivered first; this call
                    // still combines the elements it was given.
                    first.onNext(2)
                }
                return a * 100 + b
            }.subscribe(recorder)
            first.onNext(1)
            second.onNext(10)
            #expect(recorder.elements == [210, 110])
            subscription.dispose()
        }

        @Test("CombineLatest of two serializes events from two threads and keeps each source's order")
        func twoSourcesConcurrentSenders() {
            let first = PublishSubject<Int>()
            let second = PublishSubject<Int>()
            let recorder = EventRecorder<Pair>()
            let subscription = Observable.combineLatest(first, second) { Pair(first: $0, second: $1) }
                .subscribe(recorder)
            let subjects = Unchecked((first, second))
            let count = 3_000
            runConcurrently(threads: 2) { thread in
                for index in 0..<count {
                    if thread == 0 {
                        subjects.value.0.onNext(index)
                    } else {
                        subjects.value.1.onNext(index)
                    }
                }
                if thread == 0 { subjects.value.0.onCompleted() } else { subjects.value.1.onCompleted() }
            }
            let elements = recorder.elements
            #expect(recorder.overlaps == 0)
            #expect(recorder.grammarHolds)
            #expect(recorder.events.last == .completed)
            #expect(elements.last == Pair(first: count - 1, second: count - 1))
            #expect(elements.count >= count && elements.count <= 2 * count - 1)
            #expect(elements.map(\.first) == elements.map(\.first).sorted())
            #expect(elements.map(\.second) == elements.map(\.second).sorted())
            subscription.dispose()
        }

        @Test("CombineLatest of two hands its lock over between two threads that keep it busy")
        func twoSourcesHeavyContention() {
            // Every delivery holds the sink's lock a while, so the other thread often finds it
            // held and sleeps in the lock's slow path (`RxReentrantLock`, whose release wakes it
            // without a barrier): each element must still arrive, one thread at a time, and the
            // run must end (a wake-up the release missed costs the waiter its first, short
            // sleep).
            let sources = Unchecked([PublishSubject<Int>(), PublishSubject<Int>()])
            let observer = ThreadExclusiveObserver()
            let received = Atomic<Int>(0)
            let subscription = Observable.combineLatest(sources.value[0], sources.value[1])
                .subscribe(onNext: { _, _ in
                    observer.enter()
                    received.add(1, ordering: .relaxed)
                    // Sleeping with the lock held lets the other thread run into it even on a
                    // loaded machine.
                    usleep(20)
                    observer.leave()
                })
            let count = 2_000
            // Thread 0 sends into the first source, thread 1 into the second.
            runConcurrently(threads: 2) { thread in
                let source = sources.value[thread]
                for index in 0..<count { source.onNext(index) }
            }
            #expect(observer.violations == 0)
            let tuples = received.load(ordering: .relaxed)
            #expect(tuples >= count && tuples <= 2 * count - 1)
            subscription.dispose()
        }

        @Test(
            "CombineLatest of two lets its observer send into a source while another thread sends, one thread at a time"
        )
        func twoSourcesReentrantUnderContention() {
            let first = PublishSubject<Int>()
            let second = PublishSubject<Int>()
            let observer = ThreadExclusiveObserver()
            let subjects = Unchecked((first, second))
            // The observer sends into `second` (a nested delivery on its thread) on every tenth
            // element of `first`, while another thread sends into `second`.
            let subscription = Observable.combineLatest(first, second)
                .subscribe(onNext: { a, b in
                    observer.enter()
                    if b >= 0 && a % 10 == 0 { subjects.value.1.onNext(-a - 1) }
                    observer.leave()
                })
            let count = 2_000
            runConcurrently(threads: 3) { thread in
                for index in 0..<count {
                    if thread == 0 { subjects.value.0.onNext(index) } else { subjects.value.1.onNext(index) }
                }
            }
            #expect(observer.violations == 0)
            #expect(observer.deliveries >= count)
            subscription.dispose()
        }
    }
}

/// An element of two fields, for the concurrency tests of `combineLatest`.
private struct Pair: Equatable {
    let first: Int
    let second: Int
}

/// Counts deliveries, and deliveries that began on one thread while another thread was inside
/// one (nested deliveries on the same thread are allowed).
private final class ThreadExclusiveObserver: Sendable {
    private let holder = Atomic<UInt>(0)
    private let nesting = Atomic<Int>(0)
    private let violationCount = Atomic<Int>(0)
    private let deliveryCount = Atomic<Int>(0)

    private static func currentThread() -> UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }

    func enter() {
        deliveryCount.add(1, ordering: .relaxed)
        let me = Self.currentThread()
        if holder.load(ordering: .acquiring) == me {
            nesting.add(1, ordering: .relaxed)
        } else if holder.compareExchange(expected: 0, desired: me, ordering: .acquiring).exchanged {
            nesting.store(1, ordering: .relaxed)
        } else {
            violationCount.add(1, ordering: .relaxed)
            return
        }
        // Widen the window in which another thread's delivery would be caught.
        for _ in 0..<200 { _ = holder.load(ordering: .relaxed) }
    }

    func leave() {
        guard holder.load(ordering: .relaxed) == Self.currentThread() else { return }
        if nesting.subtract(1, ordering: .relaxed).newValue == 0 {
            holder.store(0, ordering: .releasing)
        }
    }

    var violations: Int { violationCount.load(ordering: .relaxed) }
    var deliveries: Int { deliveryCount.load(ordering: .relaxed) }
}
