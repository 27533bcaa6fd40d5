import RxCore
import Testing

extension RxCoreTests {
    @Suite("AnyObserver")
    struct AnyObserverTests {
        @Test("AnyObserver forwards events to its closure or to the wrapped observer")
        func forwardsEvents() {
            var events: [Event<Int>] = []
            let observer = AnyObserver<Int> { events.append($0) }
            observer.onNext(1)
            observer.on(.next(2))
            observer.onCompleted()
            #expect(events == [.next(1), .next(2), .completed])
            let recorder = EventRecorder<Int>()
            let wrapped = AnyObserver(recorder)
            wrapped.onError(TestError(1))
            #expect(recorder.events == [.error(TestError(1))])
        }

        @Test("MapObserver transforms elements before forwarding them")
        func mapObserver() {
            let recorder = EventRecorder<String>()
            let observer: AnyObserver<Int> = recorder.mapObserver { "#\($0)" }
            observer.onNext(3)
            #expect(recorder.events == [.next("#3")])
        }
    }
}
