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

        @Test("Bind to several relays of each kind, and to relays of optionals, without ambiguity")
        func bindToRelaysOfEachKind() {
            let publish1 = PublishRelay<Int>()
            let publish2 = PublishRelay<Int>()
            let optionalPublish = PublishRelay<Int?>()
            let behavior1 = BehaviorRelay<Int>(value: 0)
            let behavior2 = BehaviorRelay<Int>(value: 0)
            let optionalBehavior = BehaviorRelay<Int?>(value: 0)
            let replay1 = ReplayRelay<Int>.create(bufferSize: 1)
            let replay2 = ReplayRelay<Int>.create(bufferSize: 1)
            let optionalReplay = ReplayRelay<Int?>.create(bufferSize: 1)
            let publishRecorders = (EventRecorder<Int>(), EventRecorder<Int>(), EventRecorder<Int?>())
            let replayRecorders = (EventRecorder<Int>(), EventRecorder<Int>(), EventRecorder<Int?>())
            let relaySubscriptions = [
                publish1.subscribe(publishRecorders.0), publish2.subscribe(publishRecorders.1),
                optionalPublish.subscribe(publishRecorders.2), replay1.subscribe(replayRecorders.0),
                replay2.subscribe(replayRecorders.1), optionalReplay.subscribe(replayRecorders.2),
            ]
            _ = Observable.just(1).bind(to: publish1, publish2)
            _ = (Observable.just(2) as Observable<Int>).bind(to: optionalPublish)
            _ = Observable.just(3).bind(to: optionalPublish)
            _ = Observable.just(4).bind(to: behavior1, behavior2)
            _ = (Observable.just(5) as Observable<Int>).bind(to: optionalBehavior)
            _ = Observable.just(6).bind(to: replay1, replay2)
            _ = (Observable.just(7) as Observable<Int>).bind(to: optionalReplay)
            _ = Observable.just(8).bind(to: optionalReplay)
            #expect(publishRecorders.0.events == [.next(1)])
            #expect(publishRecorders.1.events == [.next(1)])
            #expect(publishRecorders.2.events == [.next(2), .next(3)])
            #expect([behavior1.value, behavior2.value] == [4, 4])
            #expect(optionalBehavior.value == 5)
            #expect(replayRecorders.0.events == [.next(6)])
            #expect(replayRecorders.1.events == [.next(6)])
            #expect(replayRecorders.2.events == [.next(7), .next(8)])
            for subscription in relaySubscriptions { subscription.dispose() }
        }

        @Test("Binding an infallible to relays of each kind, optional ones included")
        func bindInfallibleToRelays() {
            let publish = PublishRelay<Int?>()
            let behavior = BehaviorRelay<Int>(value: 0)
            let replay = ReplayRelay<Int?>.create(bufferSize: 2)
            let recorder = EventRecorder<Int?>()
            let replayRecorder = EventRecorder<Int?>()
            let subscriptions = [publish.subscribe(recorder), replay.subscribe(replayRecorder)]
            _ = Infallible.just(1).bind(to: publish)
            _ = Infallible.of(2, 3).bind(to: behavior)
            _ = Infallible.of(4, 5).bind(to: replay)
            #expect(recorder.events == [.next(1)])
            #expect(behavior.value == 3)
            #expect(replayRecorder.events == [.next(4), .next(5)])
            for subscription in subscriptions { subscription.dispose() }
        }
    }
}
