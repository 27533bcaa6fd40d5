import Dispatch
import Foundation
import RxCore
import Testing

// Scenarios of RxSwift 6.10.2's Anomalies.swift: sharing operators must not deadlock when
// elements arrive on other threads while a subscription or a delivery is in progress.
extension RxCoreTests {
    @Suite("sharing anomalies, RxSwift parity")
    struct AnomaliesParityTests {
        static let shares: [(replay: Int, scope: SubjectLifetimeScope)] = [
            (0, .whileConnected), (0, .forever), (1, .whileConnected), (1, .forever), (2, .whileConnected),
            (2, .forever),
        ]

        @Test(
            "A shared source whose flatMap inner sequences emit from another thread completes (RxSwift #1323)",
            arguments: 0..<6)
        func issue1323(index: Int) {
            let (replay, scope) = Self.shares[index]
            let done = DispatchSemaphore(value: 0)
            let subscription = Observable<Int>.create { observer in
                observer.on(.next(1))
                Thread.sleep(forTimeInterval: 0.05)
                observer.on(.completed)
                return Disposables.create()
            }
            .flatMap { value -> Observable<Int> in
                Observable.create { observer in
                    let sendable = Unchecked(observer)
                    DispatchQueue.global().async {
                        sendable.value.onNext(value)
                        sendable.value.onCompleted()
                    }
                    return Disposables.create()
                }
            }
            .share(replay: replay, scope: scope)
            .subscribe(onCompleted: { done.signal() })
            #expect(done.wait(timeout: .now() + 5) == .success)
            subscription.dispose()
        }

        @Test(
            "Delivering on one shared timer does not block subscribing to another (separate on and subscription locks)",
            arguments: 0..<6)
        func separationBetweenOnAndSubscriptionLocks(index: Int) {
            let (replay, scope) = Self.shares[index]
            let done = DispatchSemaphore(value: 0)
            let started = DispatchSemaphore(value: 0)
            let box = LockedList<Disposable>()
            DispatchQueue(label: "off main thread", attributes: .concurrent).async {
                func makeSequence(period: RxTimeInterval) -> Observable<Int> {
                    let queue = DispatchQueue(label: "Test", attributes: .concurrent)
                    let scheduler = ConcurrentDispatchQueueScheduler(queue: queue, leeway: .milliseconds(0))
                    return Observable<Int>.interval(period, scheduler: scheduler).share(
                        replay: replay, scope: scope)
                }
                box.append(
                    Observable.of(
                        makeSequence(period: .milliseconds(100)), makeSequence(period: .milliseconds(150))
                    )
                    .merge()
                    .take(1)
                    .subscribe(
                        onNext: { _ in Thread.sleep(forTimeInterval: 0.2) },
                        onCompleted: { done.signal() }))
                started.signal()
            }
            #expect(started.wait(timeout: .now() + 5) == .success)
            #expect(done.wait(timeout: .now() + 5) == .success)
            for subscription in box.items { subscription.dispose() }
        }
    }
}
