import RxCore
import Testing

extension RxCoreTests {
    @Suite("ControlProperty and ControlEvent")
    struct ControlPropertyTests {
        @Test("A control property emits its values and sets the property from what it receives")
        @MainActor
        func valuesAndSink() {
            let storage = BehaviorRelay<String?>(value: nil)
            let property = ControlProperty(
                values: storage.asObservable(), valueSink: Binder(storage) { $0.accept($1) })
            var seen: [String] = []
            var changes: [String] = []
            let values = property.orEmpty.subscribe(onNext: { seen.append($0) })
            let changed = property.changed.subscribe(onNext: { changes.append($0 ?? "nil") })
            property.onNext("a")
            property.orEmpty.onNext("b")
            #expect(seen == ["", "a", "b"])
            #expect(changes == ["a", "b"])
            values.dispose()
            changed.dispose()
        }

        @Test("A control event is a sequence that can be driven")
        @MainActor
        func controlEvent() {
            let taps = PublishSubject<Void>()
            let event = ControlEvent(events: taps)
            var count = 0
            let subscription = event.asDriver().drive(onNext: { count += 1 })
            taps.onNext(())
            taps.onNext(())
            #expect(count == 2)
            subscription.dispose()
        }
    }
}
