import Foundation
import RxCore
import Synchronization
import Testing

// Stress tests of what a subject's delivery assumes about its observers' lifetime and order
// (see `SubjectCore`): a delivery reads the observer list, and the one observer of a list, without
// retaining them, while other threads, or the observer itself, replace the list. Each test
// counts on its worker threads (see `DeliveryTally`) and checks after joining them. Bounded:
// each case runs in a fraction of a second.
extension RxCoreTests {
    @Suite("Subject delivery under concurrency and reentrancy")
    struct SubjectDeliveryStressTests {
        @Test(
            "An observer subscribed and disposed in a loop while another thread sends lives through each element, receiving them in order, one at a time",
            arguments: StressedSubject.allCases, StressedObserver.allCases)
        func churnedObserverOutlivesEachDelivery(subject kind: StressedSubject, observer: StressedObserver) {
            let subject = kind.make()
            let tally = DeliveryTally()
            let churned = Atomic<Bool>(false)
            // Bounded by counts, and each thread goes on past them, up to a deadline, while no
            // element has been received: the test's cases run in parallel, so on two cores one
            // thread may run for whole time slices while the other waits (a release build once
            // finished one thread's counted work before the other ran, and the case failed with
            // nothing received). Not by time alone: while one thread delivers, the other's sends
            // or subscriptions queue up (see `SubjectCore`), so the counts also bound that queue
            // (200,000 elements: under ThreadSanitizer a million took 64-97 s to drain, 200,000
            // 15-20 s; a release build without the list's retirement still crashes).
            let deadline = ContinuousClock.now + .seconds(3)
            let nothingReceivedYet: @Sendable () -> Bool = {
                tally.received.count == 0 && ContinuousClock.now < deadline
            }
            runConcurrently(threads: 2) { thread in
                if thread == 0 {
                    var current: Disposable?
                    // At least 200 observers, and until the sender has reached some of them.
                    var iteration = 0
                    while iteration < 200
                        || (tally.received.count < 200 && (iteration < 20_000 || nothingReceivedYet()))
                    {
                        defer { iteration += 1 }
                        if iteration % 2 == 0 {
                            // One observer, none, one: the list goes single, empty, single.
                            current?.dispose()
                            current = observer.subscribe(to: subject.source, probe: LifetimeProbe(tally))
                        } else {
                            // One, two, one: single, several, single.
                            let previous = current
                            current = observer.subscribe(to: subject.source, probe: LifetimeProbe(tally))
                            previous?.dispose()
                        }
                    }
                    current?.dispose()
                    churned.store(true, ordering: .sequentiallyConsistent)
                } else {
                    var element = 0
                    while !churned.load(ordering: .sequentiallyConsistent)
                        && (element < 200_000 || nothingReceivedYet())
                    {
                        subject.send(element)
                        element += 1
                    }
                }
            }
            #expect(tally.deinitsDuringReceive.count == 0, "an observer was freed during its delivery")
            #expect(tally.overlaps.count == 0)
            #expect(tally.outOfOrder.count == 0, "an observer received an element twice or out of order")
            #expect(tally.liveProbes.count == 0, "an observer was not released")
            #expect(tally.received.count > 0)
        }

        @Test(
            "The only observer disposing itself from its onNext, while another thread sends, receives nothing more and outlives that onNext",
            arguments: StressedSubject.allCases, StressedObserver.allCases)
        func selfDisposingObserverOutlivesItsDelivery(
            subject kind: StressedSubject, observer: StressedObserver
        ) {
            let subject = kind.make()
            let tally = DeliveryTally()
            let finished = Atomic<Bool>(false)
            // Raised while an observer waits for an element: the sender sends only then, so that
            // it cannot run ahead of the observers (nor finish before the first one) on a busy
            // machine.
            let waiting = Atomic<Bool>(false)
            runConcurrently(threads: 2) { thread in
                if thread == 0 {
                    for _ in 0..<100 {
                        let slot = SelfDisposingSlot()
                        // Not kept here: once the observer drops its subscription, only the
                        // subject's delivery under way keeps it alive.
                        slot.fill(
                            observer.subscribe(
                                to: subject.source, probe: LifetimeProbe(tally),
                                then: { _ in slot.observerReceived(tally) }))
                        waiting.store(true, ordering: .sequentiallyConsistent)
                        var spins = 0
                        // Yielding: with both threads spinning, a third process on one of the
                        // two cores starved the sender.
                        while !slot.isSelfDisposed && spins < 100_000 {
                            spins += 1
                            sched_yield()
                        }
                        waiting.store(false, ordering: .sequentiallyConsistent)
                        slot.disposeRemaining()
                    }
                    finished.store(true, ordering: .sequentiallyConsistent)
                } else {
                    var element = 0
                    while !finished.load(ordering: .sequentiallyConsistent) {
                        if waiting.load(ordering: .sequentiallyConsistent) {
                            subject.send(element)
                            element += 1
                        } else {
                            sched_yield()
                        }
                    }
                }
            }
            #expect(tally.deinitsDuringReceive.count == 0, "an observer was freed during its delivery")
            #expect(
                tally.afterSelfDisposal.count == 0, "an observer received elements after disposing itself")
            #expect(tally.overlaps.count == 0)
            #expect(tally.outOfOrder.count == 0)
            #expect(tally.liveProbes.count == 0, "an observer was not released")
            #expect(tally.selfDisposals.count > 0, "no observer disposed itself: the test tested nothing")
        }

        @Test(
            "An observer disposed while another thread's delivery ends is released by the time both return, not at the subject's next event",
            arguments: StressedSubject.allCases)
        func observerDisposedAsDeliveryEndsIsReleasedAtOnce(subject kind: StressedSubject) {
            // Many short trials, each a race between the end of one element's delivery (without
            // the subject's lock) and the disposal of its only observer (with it), the disposal
            // delayed by a different spin each time to sweep the window. A disposal during a
            // delivery leaves the observer's release to the deliverer, when the delivery ends; if
            // the delivery ends just as the disposal decides so, one of them must still release
            // it, or the observer and what it holds (here its subject, a cycle) stay until the
            // subject's next event. (The CI run that found it: a churned observer still alive
            // after the test, and LeakSanitizer's report of it.)
            let trials = 2_000
            let tally = DeliveryTally()
            let subjects = (0..<trials).map { _ in kind.make() }
            let subscriptions = Unchecked(
                subjects.map { subject in
                    // The observer holds its subject, as an observer that sends to it would.
                    StressedObserver.closure.subscribe(
                        to: subject.source, probe: LifetimeProbe(tally), then: { _ in _ = subject })
                })
            let shared = Unchecked(subjects)
            let arrivals = Atomic<Int>(0)
            runConcurrently(threads: 2) { thread in
                for trial in 0..<trials {
                    arrivals.add(1, ordering: .sequentiallyConsistent)
                    var spins = 0
                    while arrivals.load(ordering: .sequentiallyConsistent) < 2 * (trial + 1) {
                        // Yielding now and then: the other thread may be waiting for this core.
                        spins += 1
                        if spins % 64 == 0 { sched_yield() }
                    }
                    if thread == 0 {
                        shared.value[trial].send(trial)
                    } else {
                        for _ in 0..<(trial % 97) { _ = arrivals.load(ordering: .relaxed) }
                        subscriptions.value[trial].dispose()
                    }
                }
            }
            #expect(
                tally.liveProbes.count == 0, "disposed observers kept by their subject until its next event")
            withExtendedLifetime(subjects) {}
        }

        @Test(
            "An observer subscribed from another's onNext, while a third thread subscribes and disposes, receives exactly the elements from then on",
            arguments: StressedSubject.allCases)
        func observerSubscribedDuringDeliveryStartsAfterIt(subject kind: StressedSubject) {
            let subject = kind.make()
            let source = subject.source
            // Each observer subscribed at element k, by the first observer, which disposes it at
            // element k + 10 before it receives it.
            let late = LockedList<(start: Int, recorder: EventRecorder<Int>)>()
            var lateSubscription: Disposable?
            let first = source.subscribe(onNext: { element in
                guard element >= 0, element % 10 == 0 else { return }
                // The list goes from the first observer alone (with no churned one) to two,
                // while it is being delivered to.
                lateSubscription?.dispose()
                let recorder = EventRecorder<Int>()
                late.append((element, recorder))
                lateSubscription = source.subscribe(recorder)
            })
            let tally = DeliveryTally()
            let sent = Atomic<Bool>(false)
            let shared = Unchecked(source)
            runConcurrently(threads: 2) { thread in
                if thread == 0 {
                    // Bounded, not only until the sender is done: with a subject that replays,
                    // each subscription made while the sender delivers queues its replay for the
                    // sender to deliver (see `SubjectCore`), so a thread subscribing as fast as
                    // the sender drains its queue holds it in that `send` for as long as it
                    // keeps subscribing; waiting for the sender then may never end (under
                    // ThreadSanitizer on a loaded machine, the queue grew until the process was
                    // killed for want of memory).
                    var churns = 0
                    while !sent.load(ordering: .sequentiallyConsistent) && churns < 2_000 {
                        StressedObserver.closure.subscribe(to: shared.value, probe: LifetimeProbe(tally))
                            .dispose()
                        churns += 1
                    }
                } else {
                    for element in 0..<1_000 {
                        subject.send(element)
                    }
                    sent.store(true, ordering: .sequentiallyConsistent)
                }
            }
            lateSubscription?.dispose()
            first.dispose()
            let observers = late.items
            #expect(observers.count == 100)
            // When the sender delivers its elements itself, an observer subscribed at element k
            // receives k + 1 ... k + 9, after the elements replayed. When another thread delivers
            // (the churning thread, which delivers its observers' replays), the sender's elements
            // are queued meanwhile, each with the observers current when it was accepted: those
            // accepted before the subscription do not reach it, and its replay is of the latest
            // ones then. Either way: a run of consecutive elements (its replay included), from
            // k + 1 - replayed at the earliest, to k + 9, or nothing.
            var exact = 0
            for (start, recorder) in observers {
                let elements = recorder.elements
                let run = Array(Swift.max(0, start + 1 - kind.replayed)...(start + 9))
                #expect(
                    elements.isEmpty || run.reversed().starts(with: elements.reversed()),
                    "subscribed at \(start): \(elements)")
                #expect(recorder.overlaps == 0)
                if elements == run { exact += 1 }
            }
            #expect(exact > 0 || kind.replayed > 0, "no observer saw the delivery under way")
            #expect(tally.deinitsDuringReceive.count == 0)
            #expect(tally.outOfOrder.count == 0)
            #expect(tally.liveProbes.count == 0)
        }
    }
}
