import RxCore
import Testing

extension RxCoreTests {
    @Suite("PublishSubject._followingEachSubscription")
    struct PublishSubjectFollowingEachSubscriptionTests {
        @Test("Each subscriber gets its own element once subscribed, then the subject's events")
        func elementPerSubscriber() {
            let subject = PublishSubject<Int>()
            var calls = 0
            let source = subject._followingEachSubscription { () -> Int? in
                calls += 1
                return calls * 10
            }
            // Each recorder subscribes, then the subject sends the next number.
            let recorders = [EventRecorder<Int>(), EventRecorder<Int>()]
            let subscriptions = zip(recorders, 1...).map { recorder, number in
                defer { subject.onNext(number) }
                return source.subscribe(recorder)
            }
            #expect(recorders[0].events == [.next(10), .next(1), .next(2)])
            #expect(recorders[1].events == [.next(20), .next(2)])
            for subscription in subscriptions { subscription.dispose() }
        }

        @Test("No element is sent when the function returns nil")
        func nilSendsNothing() {
            let subject = PublishSubject<Int>()
            let recorder = EventRecorder<Int>()
            let subscription = subject._followingEachSubscription { nil }.subscribe(recorder)
            subject.onNext(1)
            #expect(recorder.events == [.next(1)])
            subscription.dispose()
        }

        @Test("An element sent from inside a delivery comes after the event being delivered")
        func reentrantSubscribeWaitsItsTurn() {
            let subject = PublishSubject<Int>()
            let inner = EventRecorder<Int>()
            var innerSubscription: Disposable?
            let outer = subject.subscribe(onNext: { value in
                guard value == 1, innerSubscription == nil else { return }
                innerSubscription = subject._followingEachSubscription { 100 }.subscribe(inner)
                #expect(inner.events.isEmpty)  // queued behind the event under way
            })
            subject.onNext(1)
            subject.onNext(2)
            #expect(inner.events == [.next(100), .next(2)])
            outer.dispose()
            innerSubscription?.dispose()
        }

        @Test("A terminated subject gives its terminal event and the function is not called")
        func terminatedSubject() {
            let subject = PublishSubject<Int>()
            subject.onCompleted()
            var called = false
            let recorder = EventRecorder<Int>()
            _ = subject._followingEachSubscription {
                called = true
                return 1
            }.subscribe(recorder)
            #expect(recorder.events == [.completed])
            #expect(!called)
        }
    }

    @Suite("Observable._subscribingDirectly")
    struct SubscribingDirectlyTests {
        @Test("Sent events and the attached source's events reach the observer in order")
        func sendThenAttach() {
            let subject = PublishSubject<Int>()
            let source = Observable<Int>._subscribingDirectly { attach, send in
                send(.next(0))
                return attach(subject.asObservable())
            }
            let recorder = EventRecorder<Int>()
            let subscription = source.subscribe(recorder)
            subject.onNext(1)
            subscription.dispose()
            subject.onNext(2)
            #expect(recorder.events == [.next(0), .next(1)])
        }

        @Test("An error sent on subscribe is the stream's error")
        func sendError() {
            let source = Observable<Int>._subscribingDirectly { _, send in
                send(.error(TestError(7)))
                return Disposables.create()
            }
            #expect(synchronousEvents(of: source) == [.error(TestError(7))])
        }
    }
}
