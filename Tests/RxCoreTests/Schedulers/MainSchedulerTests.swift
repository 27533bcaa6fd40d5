import Dispatch
import Foundation
import RxCore
import Testing

extension RxCoreTests {
    @Suite("MainScheduler")
    struct MainSchedulerTests {
        @Test(
            "The main scheduler runs work scheduled from a background thread on the main queue",
            .timeLimit(.minutes(1)))
        func runsOnMainQueue() async {
            let background = DispatchQueue(label: "main-scheduler-test")
            let key = DispatchSpecificKey<Int>()
            DispatchQueue.main.setSpecific(key: key, value: 1)
            let ranOnMain = await withCheckedContinuation {
                (continuation: CheckedContinuation<Bool, Never>) in
                let resume = Unchecked(continuation)
                background.async {
                    _ = MainScheduler.instance.schedule(()) { _ in
                        resume.value.resume(returning: DispatchQueue.getSpecific(key: key) == 1)
                        return Disposables.create()
                    }
                }
            }
            // Let the main queue finish (and release) the scheduled block before the resource check.
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resume = Unchecked(continuation)
                DispatchQueue.main.async { resume.value.resume() }
            }
            // The background block still holds the disposable returned by `schedule` until it ends.
            background.sync {}
            #expect(ranOnMain)
        }
    }
}
