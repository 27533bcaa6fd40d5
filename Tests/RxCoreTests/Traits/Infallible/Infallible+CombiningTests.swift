import RxCore
import Testing

extension RxCoreTests {
    /// RxSwift's `InfallibleCombineLatestTest`: cold sources subscribed at tick 0 deliver at
    /// tick 1, and the combination arrives then, at every arity.
    @Suite("Infallible combineLatest arity")
    struct InfallibleCombiningTests {
        private static func source(_ scheduler: TestScheduler) -> Infallible<Int> {
            scheduler.createColdObservable([.next(1, 1)]).asInfallible(onErrorFallbackTo: .never())
        }

        private static func combined(_ make: (TestScheduler) -> Infallible<Int>) -> [Recorded<Event<Int>>] {
            let scheduler = TestScheduler(initialClock: 0)
            let combined = make(scheduler)
            return scheduler.start(created: 0, subscribed: 0, disposed: 100) { combined }.events
        }

        @Test("combineLatest of 2 infallibles")
        func arity2() {
            let events = Self.combined { s in
                Infallible.combineLatest(Self.source(s), Self.source(s)).map { $0 + $1 }
            }
            #expect(events == [.next(1, 2)])
        }

        @Test("combineLatest of 3 infallibles")
        func arity3() {
            let events = Self.combined { s in
                Infallible.combineLatest(Self.source(s), Self.source(s), Self.source(s)).map { $0 + $1 + $2 }
            }
            #expect(events == [.next(1, 3)])
        }

        @Test("combineLatest of 4 infallibles")
        func arity4() {
            let events = Self.combined { s in
                Infallible.combineLatest(Self.source(s), Self.source(s), Self.source(s), Self.source(s))
                    .map { (a: Int, b: Int, c: Int, d: Int) -> Int in a + b + c + d }
            }
            #expect(events == [.next(1, 4)])
        }

        @Test("combineLatest of 5 infallibles")
        func arity5() {
            let events = Self.combined { s in
                Infallible.combineLatest(
                    Self.source(s), Self.source(s), Self.source(s), Self.source(s), Self.source(s)
                )
                .map { (a: Int, b: Int, c: Int, d: Int, e: Int) -> Int in a + b + c + d + e }
            }
            #expect(events == [.next(1, 5)])
        }

        @Test("combineLatest of 6 infallibles")
        func arity6() {
            let events = Self.combined { s in
                Infallible.combineLatest(
                    Self.source(s), Self.source(s), Self.source(s), Self.source(s), Self.source(s),
                    Self.source(s)
                )
                .map { (a: Int, b: Int, c: Int, d: Int, e: Int, f: Int) -> Int in a + b + c + d + e + f }
            }
            #expect(events == [.next(1, 6)])
        }

        @Test("combineLatest of 7 infallibles")
        func arity7() {
            let events = Self.combined { s in
                Infallible.combineLatest(
                    Self.source(s), Self.source(s), Self.source(s), Self.source(s), Self.source(s),
                    Self.source(s), Self.source(s)
                )
                .map { (a: Int, b: Int, c: Int, d: Int, e: Int, f: Int, g: Int) -> Int in
                    a + b + c + d + e + f + g
                }
            }
            #expect(events == [.next(1, 7)])
        }

        @Test("combineLatest of 8 infallibles")
        func arity8() {
            let events = Self.combined { s in
                Infallible.combineLatest(
                    Self.source(s), Self.source(s), Self.source(s), Self.source(s), Self.source(s),
                    Self.source(s), Self.source(s), Self.source(s)
                )
                .map { (a: Int, b: Int, c: Int, d: Int, e: Int, f: Int, g: Int, h: Int) -> Int in
                    a + b + c + d + e + f + g + h
                }
            }
            #expect(events == [.next(1, 8)])
        }
    }
}
