import RxCore
import Testing

extension RxCoreTests {
    @Suite("create")
    struct CreateTests {
        @Test("Create runs the subscribe function per subscription and keeps the grammar")
        func runsSubscribeFunction() {
            var disposed = 0
            let source = Observable<Int>.create { observer in
                observer.onNext(1)
                observer.onCompleted()
                observer.onNext(2)
                observer.onError(TestError(1))
                return Disposables.create { disposed += 1 }
            }
            #expect(synchronousEvents(of: source) == [.next(1), .completed])
            #expect(synchronousEvents(of: source) == [.next(1), .completed])
            #expect(disposed == 2)
        }

        @Test("Disposing a created sequence runs its disposable and stops delivery")
        func disposalStopsDelivery() {
            var captured: AnyObserver<Int>?
            var disposed = false
            let source = Observable<Int>.create { observer in
                captured = observer
                return Disposables.create { disposed = true }
            }
            let recorder = EventRecorder<Int>()
            let subscription = source.subscribe(recorder)
            captured?.onNext(1)
            subscription.dispose()
            captured?.onNext(2)
            #expect(recorder.events == [.next(1)])
            #expect(disposed)
            captured = nil
        }

        @Test("Events sent to a created sequence from several threads never overlap")
        func concurrentSendersDoNotOverlap() {
            let observerBox = LockedList<AnyObserver<Int>>()
            let source = Observable<Int>.create { observer in
                observerBox.append(observer)
                return Disposables.create()
            }
            let recorder = EventRecorder<Int>()
            let subscription = source.subscribe(recorder)
            let observer = Unchecked(observerBox.items[0])
            runConcurrently(threads: 4) { _ in
                for index in 0..<1_000 {
                    observer.value.onNext(index)
                }
                observer.value.onCompleted()
            }
            #expect(recorder.overlaps == 0)
            #expect(recorder.grammarHolds)
            #expect(recorder.events.filter(\.isStopEvent).count == 1)
            subscription.dispose()
        }
    }
}
