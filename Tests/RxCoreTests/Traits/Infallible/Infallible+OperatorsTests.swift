import RxCore
import Testing

extension RxCoreTests {
    @Suite("Infallible operators")
    struct InfallibleOperatorsTests {
        @Test("zip of infallibles with a selector and of a collection")
        func zipAndCollections() {
            var values: [Int] = []
            _ = Infallible.zip(Infallible.just(1), Infallible.just(2)) { $0 + $1 }.subscribe(onNext: {
                values.append($0)
            })
            _ = Infallible.combineLatest([Infallible.just(3), Infallible.just(4)]).subscribe(onNext: {
                values.append($0.reduce(0, +))
            })
            #expect(values == [3, 7])
        }

        @Test("Relays as infallibles, and binding infallibles to relays")
        func relays() {
            let scheduler = TestScheduler(initialClock: 0)
            let relay = ReplayRelay<Int>.create(bufferSize: 2)
            let ys = scheduler.createHotObservable([.next(500, 25), .next(600, 33)])
            let observer = scheduler.createObserver(Int.self)
            _ = relay.asInfallible().bind(to: observer)
            _ = ys.bind(to: relay)
            scheduler.start()
            #expect(observer.events == [.next(500, 25), .next(600, 33)])

            let optional = BehaviorRelay<Int?>(value: nil)
            _ = Infallible.just(7).bind(to: optional)
            #expect(optional.value == 7)
        }

        @Test("Concat, merge, flatMap and take of infallibles")
        func operators() {
            var values: [Int] = []
            _ = Infallible.concat([Infallible.just(1), Infallible.just(2)])
                .concatMap { Observable.of($0, $0 * 10) }
                .take(3)
                .subscribe(onNext: { values.append($0) })
            _ = Infallible.merge(Infallible.of(4), Infallible.of(5)).startWith(3)
                .distinctUntilChanged { $0 % 2 }
                .subscribe(onNext: { values.append($0) })
            #expect(values == [1, 10, 2, 3, 4, 5])
        }
    }
}
