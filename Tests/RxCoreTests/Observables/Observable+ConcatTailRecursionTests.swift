import RxCore
import Testing

extension RxCoreTests {
    @Suite("Observable.concat tail recursion")
    struct ObservableConcatTailRecursionTests {
        /// `concat` of a lazy two-element collection whose second element is the same
        /// construction one index further: infinitely nested, only usable if consumed lazily.
        private func nested(_ index: Int) -> Observable<Int> {
            Observable.concat([0, 1].lazy.map { $0 == 0 ? Observable.just(index) : nested(index + 1) })
        }

        /// The same nesting through a sequence of unknown length.
        private func nestedSequence(_ index: Int) -> Observable<Int> {
            Observable.concat(
                AnySequence([0, 1].lazy.map { $0 == 0 ? Observable.just(index) : nestedSequence(index + 1) }))
        }

        @Test("A concat nested last in a collection is flattened: the source stack stays at one")
        func collection() throws {
            maxTailRecursiveSinkStackSize = 0
            let elements = try nested(0).take(10000).toBlocking().toArray()
            #expect(elements == Array(0..<10000))
            #expect(maxTailRecursiveSinkStackSize == 1)
        }

        @Test("A concat nested last in a sequence is consumed lazily without growing the call stack")
        func sequence() throws {
            let elements = try nestedSequence(0).take(1000).toBlocking().toArray()
            #expect(elements == Array(0..<1000))
        }

        @Test("catch(sequence:) consumes its sequence lazily")
        func catchSequence() {
            var made = 0
            let sources = (0..<5).lazy.map { index -> Observable<Int> in
                made += 1
                return index < 2 ? .error(TestError(index)) : .just(index)
            }
            #expect(synchronousEvents(of: Observable.catch(sequence: sources)) == [.next(2), .completed])
            #expect(made == 3)
        }
    }
}
