import Dispatch
import RxCore
import Testing

extension RxCoreTests {
    @Suite("delay")
    struct DelayTests {
        @Test("Delay shifts elements and completion by the due time")
        func simple() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(
                Recorded.events(.next(150, 1), .next(250, 2), .next(350, 3), .next(450, 4), .completed(550)))
            let observer = scheduler.start { xs.delay(.seconds(100), scheduler: scheduler) }
            #expect(observer.events == [.next(350, 2), .next(450, 3), .next(550, 4), .completed(650)])
            #expect(xs.subscriptions == [Subscription(200, 550)])
        }

        @Test("Delay forwards an error at once and drops the elements still waiting")
        func error() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(
                Recorded.events(.next(250, 2), .next(350, 3), .error(400, TestError(1), Int.self)))
            let observer = scheduler.start { xs.delay(.seconds(100), scheduler: scheduler) }
            #expect(observer.events == [.next(350, 2), .error(400, TestError(1))])
            #expect(xs.subscriptions == [Subscription(200, 400)])
        }

        @Test("Delay delivers an error sent while the observer's onNext blocks, after onNext returns")
        func errorWhileOnNextBlocksOnAnotherThread() {
            // The observer's onNext waits until the source thread has sent the error: forwarding
            // under the sink's lock would block that error until the guard below times out.
            let subject = PublishSubject<Int>()
            let elementProcessed = DispatchSemaphore(value: 0)
            let acknowledged = DispatchSemaphore(value: 0)
            let errorReceived = DispatchSemaphore(value: 0)
            let log = LockedList<String>()
            let subscription = subject.delay(
                .milliseconds(10), scheduler: ConcurrentDispatchQueueScheduler(qos: .default)
            ).subscribe(
                onNext: { value in
                    log.append("next \(value)")
                    elementProcessed.signal()
                    if acknowledged.wait(timeout: .now() + 5) == .timedOut {
                        log.append("acknowledgement timed out")
                    }
                    log.append("end \(value)")
                },
                onError: { _ in
                    log.append("error")
                    errorReceived.signal()
                })
            let source = Unchecked(subject)
            DispatchQueue.global().async {
                source.value.onNext(1)
                _ = elementProcessed.wait(timeout: .now() + 5)
                source.value.onError(TestError(1))
                acknowledged.signal()
            }
            #expect(errorReceived.wait(timeout: .now() + 10) == .success)
            subscription.dispose()
            #expect(log.items == ["next 1", "end 1", "error"])
        }

        @Test("Delay forwards an error that arrives during an onNext once it returns, and no later element")
        func errorDuringOnNextIsForwardedAfterIt() {
            let scheduler = TestScheduler(initialClock: 0)
            let subject = PublishSubject<Int>()
            let log = LockedList<String>()
            let subscription = subject.delay(.seconds(10), scheduler: scheduler).subscribe(
                onNext: { value in
                    log.append("next \(value)")
                    if value == 1 { subject.onError(TestError(1)) }
                    log.append("end \(value)")
                },
                onError: { _ in log.append("error") })
            scheduler.scheduleAt(200) {
                subject.onNext(1)
                subject.onNext(2)
            }
            scheduler.start()
            subscription.dispose()
            #expect(log.items == ["next 1", "end 1", "error"])
        }
    }
}
