import RxCore
import Testing

extension RxCoreTests {
    @Suite("DisposeBag")
    struct DisposeBagTests {
        @Test("A dispose bag disposes its subscriptions when it is deallocated")
        func disposesOnDeinit() {
            let subject = PublishSubject<Int>()
            var received: [Int] = []
            var bag: DisposeBag? = DisposeBag()
            subject.subscribe(onNext: { received.append($0) }).disposed(by: bag!)
            var disposed = false
            bag!.insert(Disposables.create { disposed = true })
            subject.onNext(1)
            bag = nil
            subject.onNext(2)
            #expect(received == [1])
            #expect(disposed)
            #expect(!subject.hasObservers)
        }

        @Test("A dispose bag accepts several disposables at once and through its builder")
        func insertsManyAndBuilder() {
            var count = 0
            do {
                let bag = DisposeBag()
                bag.insert(Disposables.create { count += 1 }, Disposables.create { count += 1 })
                bag.insert {
                    Disposables.create { count += 1 }
                    Disposables.create { count += 1 }
                }
                _ = DisposeBag(disposing: Disposables.create { count += 1 })
                #expect(count == 1)
            }
            #expect(count == 5)
        }
    }
}
