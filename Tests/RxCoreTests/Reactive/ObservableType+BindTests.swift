import RxCore
import Testing

extension RxCoreTests {
    @Suite("bind")
    struct BindTests {
        @Test("Bind forwards the events to observers and to observers of optionals")
        func bindToObservers() {
            let first = EventRecorder<Int>()
            let second = EventRecorder<Int>()
            let optional = EventRecorder<Int?>()
            let subscriptions = [
                Observable.of(1, 2).bind(to: first, second),
                Observable.of(3).bind(to: optional),
            ]
            #expect(first.events == [.next(1), .next(2), .completed])
            #expect(second.events == first.events)
            #expect(optional.events == [.next(3), .completed])
            for subscription in subscriptions { subscription.dispose() }
        }

        @Test("Bind forwards the elements to relays and a relay never receives the completion")
        func bindToRelays() {
            let publish = PublishRelay<Int>()
            let behavior = BehaviorRelay(value: 0)
            let optionalBehavior = BehaviorRelay<Int?>(value: nil)
            let recorder = EventRecorder<Int>()
            let relaySubscription = publish.subscribe(recorder)
            let subscriptions = [
                Observable.of(1, 2).bind(to: publish),
                Observable.of(5).bind(to: behavior),
                Observable.of(6).bind(to: optionalBehavior),
            ]
            #expect(recorder.events == [.next(1), .next(2)])
            #expect(behavior.value == 5)
            #expect(optionalBehavior.value == 6)
            for subscription in subscriptions + [relaySubscription] { subscription.dispose() }
        }

        @Test("Bind with onNext and with a binder function")
        func bindOnNextAndFunction() {
            var received: [Int] = []
            let subscription = Observable.of(1, 2).bind(onNext: { received.append($0) })
            #expect(received == [1, 2])
            subscription.dispose()
            let count = Observable.of(1).bind { (source: Observable<Int>) in
                synchronousEvents(of: source).count
            }
            #expect(count == 2)
        }

        @Test("Bind with an object passes it to onNext while it is alive, without retaining it")
        func bindWithObject() {
            final class Owner {
                var received: [Int] = []
            }
            let subject = PublishSubject<Int>()
            var owner: Owner? = Owner()
            weak let weakOwner = owner
            var calls = 0
            let subscription = subject.bind(with: owner!) { owner, element in
                calls += 1
                owner.received.append(element)
            }
            subject.onNext(1)
            subject.onNext(2)
            #expect(owner?.received == [1, 2])
            owner = nil
            #expect(weakOwner == nil)
            subject.onNext(3)
            #expect(calls == 2)
            subscription.dispose()
            #expect(!subject.hasObservers)
        }
    }
}
