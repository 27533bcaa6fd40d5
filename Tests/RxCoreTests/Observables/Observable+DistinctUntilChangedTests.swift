import RxCore
import Testing

extension RxCoreTests {
    @Suite("distinctUntilChanged")
    struct DistinctUntilChangedTests {
        private struct Person: Equatable {
            let name: String
            let age: Int
        }

        @Test("DistinctUntilChanged drops consecutive duplicates")
        func dropsConsecutiveDuplicates() {
            let events = synchronousEvents(of: Observable.of(1, 1, 2, 2, 1, 3, 3).distinctUntilChanged())
            #expect(events == [.next(1), .next(2), .next(1), .next(3), .completed])
        }

        @Test("DistinctUntilChanged compares keys, custom comparers and key paths")
        func keysComparersAndKeyPaths() {
            let people = [Person(name: "a", age: 1), Person(name: "b", age: 1), Person(name: "c", age: 2)]
            #expect(synchronousEvents(of: Observable.from(people).distinctUntilChanged { $0.age }).count == 3)
            #expect(synchronousEvents(of: Observable.from(people).distinctUntilChanged(at: \.age)).count == 3)
            let byParity = Observable.of(1, 3, 4, 6, 7).distinctUntilChanged { $0 % 2 == $1 % 2 }
            #expect(synchronousEvents(of: byParity) == [.next(1), .next(4), .next(7), .completed])
        }

        @Test("An error thrown by the key selector terminates distinctUntilChanged")
        func keySelectorErrorTerminates() {
            let events = synchronousEvents(
                of: Observable.of(1, 2).distinctUntilChanged { _ -> Int in throw TestError(3) })
            #expect(events == [.error(TestError(3))])
        }
    }
}
