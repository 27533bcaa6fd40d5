import Dispatch
import RxCore
import Testing

private final class Label {
    var text = ""
}

private final class Model: ReactiveCompatible {
    var name = ""
}

extension RxCoreTests {
    @Suite("Binder")
    struct BinderTests {
        @Test("A binder applies elements to its target on its scheduler")
        func appliesOnScheduler() {
            let scheduler = TestScheduler(initialClock: 0)
            let label = Label()
            let binder = Binder<String>(label, scheduler: scheduler) { label, text in label.text = text }
            binder.onNext("hello")
            #expect(label.text == "")
            scheduler.start()
            #expect(label.text == "hello")
            #expect(scheduler.clock == 1)
        }

        @Test("A binder ignores elements once its target is gone and ignores completion")
        func holdsTargetWeakly() {
            var label: Label? = Label()
            var applied = 0
            let binder = Binder<String>(label!, scheduler: CurrentThreadScheduler.instance) { _, _ in
                applied += 1
            }
            binder.onNext("a")
            label = nil
            binder.onNext("b")
            binder.onCompleted()
            #expect(applied == 1)
        }

        @Test("The rx key-path subscript of a class gives a binder that sets the property on the main queue")
        @MainActor
        func keyPathBinder() async {
            let model = Model()
            let binder: Binder<String> = model.rx.name
            binder.onNext("set on main")
            // Whether applied at once (already on the main queue) or dispatched there, it is applied
            // after one more turn of the main queue.
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resume = Unchecked(continuation)
                DispatchQueue.main.async { resume.value.resume() }
            }
            #expect(model.name == "set on main")
        }
    }
}
