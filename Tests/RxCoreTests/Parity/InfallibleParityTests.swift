import Foundation
import RxCore
import Testing

// Scenarios of RxSwift 6.10.2's Infallible+Tests.swift.
extension RxCoreTests {
    @Suite("Infallible, RxSwift parity")
    struct InfallibleParityTests {
        private let testError = TestError(1)

        private func failing(_ scheduler: TestScheduler) -> TestableObservable<Int> {
            scheduler.createHotObservable([
                .next(300, 9), .next(340, 13), .next(360, 111), .error(390, testError), .next(480, 320),
            ])
        }

        @Test("asInfallible(onErrorJustReturn:) emits the element and completes at the error")
        func onErrorJustReturn() {
            let scheduler = TestScheduler(initialClock: 0)
            let observer = scheduler.createObserver(Int.self)
            let subscription = failing(scheduler).asInfallible(onErrorJustReturn: 600).bind(to: observer)
            scheduler.start()
            #expect(
                observer.events == [
                    .next(300, 9), .next(340, 13), .next(360, 111), .next(390, 600), .completed(390),
                ])
            subscription.dispose()
        }

        @Test("asInfallible(onErrorFallbackTo:) continues with the fallback at the error")
        func onErrorFallbackTo() {
            let scheduler = TestScheduler(initialClock: 0)
            let observer = scheduler.createObserver(Int.self)
            let subscription = failing(scheduler).asInfallible(onErrorFallbackTo: Infallible<Int>.of(1, 2))
                .bind(to: observer)
            scheduler.start()
            #expect(
                observer.events == [
                    .next(300, 9), .next(340, 13), .next(360, 111), .next(390, 1), .next(390, 2),
                    .completed(390),
                ])
            subscription.dispose()
        }

        @Test("asInfallible(onErrorRecover:) subscribes to the recovery at the error")
        func onErrorRecover() {
            let scheduler = TestScheduler(initialClock: 0)
            let ys = scheduler.createHotObservable([.next(500, 25), .next(600, 33), .completed(620)])
            let observer = scheduler.createObserver(Int.self)
            let subscription = failing(scheduler)
                .asInfallible(onErrorRecover: { _ in ys.asInfallible(onErrorJustReturn: -1) })
                .bind(to: observer)
            scheduler.start()
            #expect(
                observer.events == [
                    .next(300, 9), .next(340, 13), .next(360, 111), .next(500, 25), .next(600, 33),
                    .completed(620),
                ])
            subscription.dispose()
        }

        @Test(
            "Relays as infallibles: a behavior relay starts with its value, publish and replay relays do not")
        func relays() {
            let scheduler = TestScheduler(initialClock: 0)
            let ys = scheduler.createHotObservable([.next(500, 25), .next(600, 33)])
            let behavior = BehaviorRelay<Int>(value: 0)
            let publish = PublishRelay<Int>()
            let replay = ReplayRelay<Int>.create(bufferSize: 2)
            let o1 = scheduler.createObserver(Int.self)
            let o2 = scheduler.createObserver(Int.self)
            let o3 = scheduler.createObserver(Int.self)
            let subscriptions = [
                behavior.asInfallible().bind(to: o1), publish.asInfallible().bind(to: o2),
                replay.asInfallible().bind(to: o3), ys.bind(to: behavior), ys.bind(to: publish),
                ys.bind(to: replay),
            ]
            scheduler.start()
            #expect(o1.events == [.next(0, 0), .next(500, 25), .next(600, 33)])
            #expect(o2.events == [.next(500, 25), .next(600, 33)])
            #expect(o3.events == [.next(500, 25), .next(600, 33)])
            for subscription in subscriptions { subscription.dispose() }
        }

        @Test("A created infallible stops delivering after dispose and after completion")
        func createdDetaches() {
            var observer: ((InfallibleEvent<Int>) -> Void)?
            let created = Infallible<Int>.create { o in
                observer = o
                return Disposables.create()
            }
            var elements: [Int] = []
            let subscription = created.subscribe(onNext: { elements.append($0) })
            observer?(.next(0))
            #expect(elements == [0])
            subscription.dispose()
            observer?(.next(1))
            #expect(elements == [0])

            var elements2: [Int] = []
            _ = created.subscribe(onNext: { elements2.append($0) })
            observer?(.next(0))
            observer?(.completed)
            observer?(.next(1))
            #expect(elements2 == [0])
            observer = nil
        }

        @Test(
            "subscribe(with:) passes the object to onNext, onCompleted after the replaced error, and onDisposed"
        )
        func subscribeWithObjectAfterError() {
            final class TestObject {
                let id = UUID()
            }
            var testObject: TestObject? = TestObject()
            weak let weakObject = testObject
            let scheduler = TestScheduler(initialClock: 0)
            var values: [String] = []
            var disposed: UUID?
            var completed: UUID?
            let observable = scheduler.createColdObservable([
                .next(10, 0), .next(20, 1), .error(30, testError), .next(40, 3),
            ])
            _ = observable.asInfallible(onErrorJustReturn: -1).subscribe(
                with: testObject!,
                onNext: { object, value in values.append(object.id.uuidString + "\(value)") },
                onCompleted: { completed = $0.id },
                onDisposed: { disposed = $0.id })
            scheduler.start()
            let uuid = testObject!.id
            #expect(values == [uuid.uuidString + "0", uuid.uuidString + "1", uuid.uuidString + "-1"])
            #expect(completed == uuid)
            #expect(disposed == uuid)
            testObject = nil
            #expect(weakObject == nil)
        }
    }
}
