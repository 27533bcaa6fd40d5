import RxCore
import Testing

// When a subject lets go of an observer: as RxSwift's subjects do, when its subscription is
// disposed, when the subject's terminal event has reached it, and when the subject is disposed,
// even while the subscription itself is still referenced (a stored `Disposable` must not keep the
// observer's closures, and what they capture, alive: that would make a cycle through an object
// that stores its own subscription).
extension RxCoreTests {
    @Suite("Subjects release their observers")
    struct SubjectObserverReleaseTests {
        /// The subjects under test, each with the way to end it.
        enum Kind: CaseIterable, CustomStringConvertible {
            case publish, behavior, replay, replayUnbounded, async, shareReplay, publishRefCount,
                replayAllRefCount

            var description: String {
                switch self {
                case .publish: "PublishSubject"
                case .behavior: "BehaviorSubject"
                case .replay: "ReplaySubject(2)"
                case .replayUnbounded: "ReplaySubject unbounded"
                case .async: "AsyncSubject"
                case .shareReplay: "share(replay: 1)"
                case .publishRefCount: "publish().refCount()"
                case .replayAllRefCount: "replayAll().refCount()"
                }
            }

            /// A new subject of this kind: what to subscribe to, and its observer side.
            func make() -> (source: Observable<Int>, input: AnyObserver<Int>, dispose: (() -> Void)?) {
                switch self {
                case .publish:
                    let subject = PublishSubject<Int>()
                    return (subject.asObservable(), AnyObserver(subject), subject.dispose)
                case .behavior:
                    let subject = BehaviorSubject<Int>(value: 0)
                    return (subject.asObservable(), AnyObserver(subject), subject.dispose)
                case .replay:
                    let subject = ReplaySubject<Int>.create(bufferSize: 2)
                    return (subject.asObservable(), AnyObserver(subject), subject.dispose)
                case .replayUnbounded:
                    let subject = ReplaySubject<Int>.createUnbound()
                    return (subject.asObservable(), AnyObserver(subject), subject.dispose)
                case .async:
                    let subject = AsyncSubject<Int>()
                    return (subject.asObservable(), AnyObserver(subject), nil)
                case .shareReplay:
                    let subject = PublishSubject<Int>()
                    return (subject.share(replay: 1), AnyObserver(subject), nil)
                case .publishRefCount:
                    let subject = PublishSubject<Int>()
                    return (subject.publish().refCount(), AnyObserver(subject), nil)
                case .replayAllRefCount:
                    let subject = PublishSubject<Int>()
                    return (subject.replayAll().refCount(), AnyObserver(subject), nil)
                }
            }
        }

        /// What an observer's closure captures.
        final class Captured {}

        /// A weak reference to what an observer captures: `nil` once the observer is released.
        final class WeakCaptured {
            weak var value: Captured?
        }

        /// Subscribes to `source` an observer whose closure captures an object that nothing else
        /// references.
        func subscribeCapturing(to source: Observable<Int>) -> (Disposable, WeakCaptured) {
            let captured = Captured()
            let weakCaptured = WeakCaptured()
            weakCaptured.value = captured
            return (source.subscribe(onNext: { _ in _ = captured }), weakCaptured)
        }

        @Test(
            "A disposed subscription that is still referenced does not keep its observer alive",
            arguments: Kind.allCases)
        func disposedSubscriptionReleasesObserver(kind: Kind) {
            let subject = kind.make()
            let (subscription, captured) = subscribeCapturing(to: subject.source)
            subject.input.onNext(1)
            #expect(captured.value != nil)
            subscription.dispose()
            #expect(captured.value == nil, "the observer outlived its disposed subscription")
            subscription.dispose()
            withExtendedLifetime(subscription) {}
        }

        @Test(
            "A subject releases its observers once its terminal event reached them, while their subscriptions are kept",
            arguments: Kind.allCases, [false, true])
        func terminalEventReleasesObservers(kind: Kind, failing: Bool) {
            let subject = kind.make()
            weak var weakCaptured: Captured?
            var received: [Event<Int>] = []
            var subscription: Disposable?
            do {
                let captured = Captured()
                weakCaptured = captured
                subscription = subject.source.subscribe { event in
                    _ = captured
                    received.append(event)
                }
            }
            subject.input.onNext(1)
            #expect(weakCaptured != nil)
            if failing {
                subject.input.onError(TestError(1))
            } else {
                subject.input.onCompleted()
            }
            #expect(received.last?.isStopEvent == true)
            #expect(weakCaptured == nil, "the observer outlived the subject's terminal event")
            subscription?.dispose()
            withExtendedLifetime(subscription) {}
        }

        @Test(
            "Disposing a subject releases its observers, while their subscriptions are kept",
            arguments: [Kind.publish, .behavior, .replay, .replayUnbounded])
        func disposingSubjectReleasesObservers(kind: Kind) throws {
            let subject = kind.make()
            let (subscription, captured) = subscribeCapturing(to: subject.source)
            let dispose = try #require(subject.dispose)
            dispose()
            #expect(captured.value == nil, "the observer outlived the subject's disposal")
            subscription.dispose()
            withExtendedLifetime(subscription) {}
        }

        @Test(
            "An observer that disposes its own subscription is released when its onNext returns, not during it",
            arguments: [Kind.publish, .behavior, .replay, .replayUnbounded, .shareReplay, .publishRefCount])
        func selfDisposingObserverIsReleasedAfterItsOnNext(kind: Kind) {
            let subject = kind.make()
            weak var weakCaptured: Captured?
            var aliveDuringOnNext: [Bool] = []
            let slot = SubscriptionSlot()
            do {
                let captured = Captured()
                weakCaptured = captured
                slot.subscription = subject.source.subscribe(onNext: { element in
                    guard element == 1 else { return }
                    slot.subscription?.dispose()
                    aliveDuringOnNext.append(weakCaptured != nil)
                    _ = captured
                })
            }
            subject.input.onNext(1)
            #expect(aliveDuringOnNext == [true])
            #expect(weakCaptured == nil, "the observer outlived the delivery in which it disposed itself")
            subject.input.onNext(1)
            #expect(aliveDuringOnNext == [true])
        }

        /// Holds the subscription that an observer disposes itself (a cycle until then).
        final class SubscriptionSlot {
            var subscription: Disposable?
        }
    }
}
