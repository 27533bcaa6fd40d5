import RxCore
import Testing

extension RxCoreTests {
    @Suite("Trait event equality")
    struct TraitEventEquatableTests {
        @Test("Single events compare by element and by error")
        func singleEvents() {
            var events: [SingleEvent<Int>] = []
            _ = Single.just(1).subscribe { events.append($0) }
            _ = Single<Int>.error(TestError(2)).subscribe { events.append($0) }
            #expect(events == [.success(1), .failure(TestError(2))])
            #expect(events != [.success(1), .failure(TestError(3))])
            #expect(SingleEvent<Int>.success(1) != .success(2))
        }

        @Test("Maybe events compare by element, completion and error")
        func maybeEvents() {
            var events: [MaybeEvent<Int>] = []
            _ = Maybe.just(1).subscribe { events.append($0) }
            _ = Maybe<Int>.empty().subscribe { events.append($0) }
            _ = Maybe<Int>.error(TestError(2)).subscribe { events.append($0) }
            #expect(events == [.success(1), .completed, .error(TestError(2))])
            #expect(MaybeEvent<Int>.error(TestError(1)) != .error(TestError(2)))
        }

        @Test("Completable events compare by completion and error")
        func completableEvents() {
            var events: [CompletableEvent] = []
            _ = Completable.empty().subscribe { events.append($0) }
            _ = Completable.error(TestError(2)).subscribe { events.append($0) }
            #expect(events == [.completed, .error(TestError(2))])
            #expect(CompletableEvent.completed != .error(TestError(2)))
        }
    }
}
