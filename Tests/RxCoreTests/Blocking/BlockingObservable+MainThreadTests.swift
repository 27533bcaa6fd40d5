import Foundation
import RxCore
import XCTest

/// `toBlocking()` called on the process's main thread, which is where RxBlocking's users call it.
///
/// XCTest rather than Swift Testing, deliberately: XCTest runs a test body on the main thread
/// with the main run loop in charge of the main queue (as an app or command-line tool has it),
/// while Swift Testing runs test bodies on the concurrency runtime's threads, where the main
/// queue is drained by libdispatch after `dispatchMain()` and no thread can wait on it.
final class BlockingObservableMainThreadTests: XCTestCase {
    func testToBlockingOnTheMainThreadKeepsTheMainQueueRunningForADelayOnMainScheduler() throws {
        XCTAssertTrue(Thread.isMainThread)
        let elements = try Observable.just(1).delay(.milliseconds(1), scheduler: MainScheduler.instance)
            .toBlocking(timeout: 5).toArray()
        XCTAssertEqual(elements, [1])
    }

    func testToBlockingWithoutTimeoutOnTheMainThreadEndsForJustOnMainScheduler() throws {
        XCTAssertTrue(Thread.isMainThread)
        let elements = try Observable.just(42, scheduler: MainScheduler.instance).toBlocking().toArray()
        XCTAssertEqual(elements, [42])
    }

    func testToBlockingOnTheMainThreadStillTimesOut() {
        let result = Observable<Int>.never().toBlocking(timeout: 0.05).materialize()
        guard case .failed(let elements, let error) = result else {
            return XCTFail("expected a timeout, got \(result)")
        }
        XCTAssertEqual(elements, [])
        XCTAssertEqual("\(error)", "\(RxError.timeout)")
    }
}
