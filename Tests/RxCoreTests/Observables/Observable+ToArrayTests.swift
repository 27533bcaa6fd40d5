import RxCore
import Testing

extension RxCoreTests {
    @Suite("toArray")
    struct ToArrayTests {
        @Test("ToArray emits all elements as one array on completion")
        func collectsElements() {
            #expect(
                synchronousEvents(of: Observable.of(1, 2, 3).toArray().asObservable()) == [
                    .next([1, 2, 3]), .completed,
                ])
            #expect(
                synchronousEvents(of: Observable<Int>.empty().toArray().asObservable()) == [
                    .next([]), .completed,
                ])
            #expect(
                synchronousEvents(of: Observable<Int>.error(TestError(1)).toArray().asObservable()) == [
                    .error(TestError(1))
                ]
            )
        }
    }
}
