import RxCore
import Testing

extension RxCoreTests {
    @Suite("withUnretained")
    struct WithUnretainedTests {
        /// An object that the tests pair elements with.
        final class Owner {
            let name: String
            init(name: String) { self.name = name }
        }

        @Test("With unretained pairs each element with the object")
        func pairsElementsWithObject() {
            let owner = Owner(name: "owner")
            var received: [(Owner, Int)] = []
            var completed = false
            let subscription = Observable.of(1, 2).withUnretained(owner).subscribe(
                onNext: { received.append($0) }, onCompleted: { completed = true })
            #expect(received.map(\.1) == [1, 2])
            #expect(received.allSatisfy { $0.0 === owner })
            #expect(completed)
            subscription.dispose()
        }

        @Test("With unretained and a result selector emits the selected values")
        func resultSelector() {
            let owner = Owner(name: "owner")
            let events = synchronousEvents(
                of: Observable.of(1, 2).withUnretained(owner) { "\($0.name) \($1)" })
            #expect(events == [.next("owner 1"), .next("owner 2"), .completed])
        }

        @Test("The sequence completes at the first element after the object was deallocated")
        func completesWhenObjectIsGone() {
            let subject = PublishSubject<Int>()
            let recorder = EventRecorder<String>()
            var owner: Owner? = Owner(name: "owner")
            weak let weakOwner = owner
            let subscription = subject.withUnretained(owner!) { $0.name + " \($1)" }.subscribe(recorder)
            subject.onNext(1)
            owner = nil
            // The subscription does not keep the object alive.
            #expect(weakOwner == nil)
            subject.onNext(2)
            subject.onNext(3)
            #expect(recorder.events == [.next("owner 1"), .completed])
            #expect(!subject.hasObservers)
            subscription.dispose()
        }

        @Test("An error of the source is emitted")
        func errorIsEmitted() {
            let owner = Owner(name: "owner")
            let events = synchronousEvents(
                of: Observable.concat(.of(1), .error(TestError(1))).withUnretained(owner) { $1 })
            #expect(events == [.next(1), .error(TestError(1))])
        }

        @Test("Disposing the subscription stops delivery")
        func disposalStopsDelivery() {
            let owner = Owner(name: "owner")
            let subject = PublishSubject<Int>()
            let recorder = EventRecorder<Int>()
            let subscription = subject.withUnretained(owner) { $1 }.subscribe(recorder)
            subject.onNext(1)
            subscription.dispose()
            subject.onNext(2)
            subject.onCompleted()
            #expect(recorder.events == [.next(1)])
            #expect(!subject.hasObservers)
        }
    }
}
