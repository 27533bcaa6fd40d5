import RxCore
import Testing

extension RxCoreTests {
    @Suite("CurrentThreadScheduler")
    struct CurrentThreadSchedulerTests {
        @Test("The current-thread scheduler runs the first action at once and queues nested ones")
        func trampolinesNestedActions() {
            var log: [String] = []
            #expect(CurrentThreadScheduler.isScheduleRequired)
            _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                log.append("outer start")
                #expect(!CurrentThreadScheduler.isScheduleRequired)
                _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                    log.append("nested")
                    return Disposables.create()
                }
                log.append("outer end")
                return Disposables.create()
            }
            #expect(log == ["outer start", "outer end", "nested"])
            #expect(CurrentThreadScheduler.isScheduleRequired)
        }

        @Test("Disposing a queued action cancels it")
        func disposingQueuedActionCancels() {
            var ran = false
            _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                let queued = CurrentThreadScheduler.instance.schedule(()) { _ in
                    ran = true
                    return Disposables.create()
                }
                queued.dispose()
                return Disposables.create()
            }
            #expect(!ran)
        }

        @Test(
            "An event sent re-entrantly from a subscription to a synchronous source is queued, not recursed")
        func reentrantSubscriptionIsQueued() {
            var log: [String] = []
            let subscription = Observable.of(1, 2).subscribe(onNext: { value in
                log.append("begin \(value)")
                _ = Observable.of(value * 10).subscribe(onNext: { log.append("inner \($0)") })
                log.append("end \(value)")
            })
            #expect(log == ["begin 1", "end 1", "inner 10", "begin 2", "end 2", "inner 20"])
            subscription.dispose()
        }

        @Test("Recursive scheduling on the current thread does not grow the stack")
        func deepRecursionIsFlat() {
            var count = 0
            _ = CurrentThreadScheduler.instance.scheduleRecursive(0) { value, recurse in
                count = value
                if value < 100_000 {
                    recurse(value + 1)
                }
            }
            #expect(count == 100_000)
        }
    }
}
