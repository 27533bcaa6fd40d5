import Dispatch
import Foundation
import RxCore
import Testing

/// Examples in the style of RxSwift's documentation and tutorials, written exactly as for RxSwift
/// (only the import differs). They check that the code compiles unchanged and prints the same
/// events; `print` is replaced by appending to `output`.
extension RxCoreTests {
    @Suite("RxSwift examples")
    struct RxSwiftExamplesTests {
        @Test("The playground's of, create and subscribe examples print RxSwift's output")
        func playgroundBasics() {
            var output: [String] = []
            let disposeBag = DisposeBag()
            Observable.of("🐶", "🐱", "🐭")
                .subscribe { event in output.append("\(event)") }
                .disposed(by: disposeBag)
            let myJust = { (element: String) -> Observable<String> in
                Observable.create { observer in
                    observer.on(.next(element))
                    observer.on(.completed)
                    return Disposables.create()
                }
            }
            myJust("🔴").subscribe { output.append("\($0)") }.disposed(by: disposeBag)
            Observable.from(["🐶", "🐱"])
                .subscribe(onNext: { output.append($0) }, onDisposed: { output.append("Disposed") })
                .disposed(by: disposeBag)
            #expect(
                output == [
                    "next(🐶)", "next(🐱)", "next(🐭)", "completed", "next(🔴)", "completed", "🐶", "🐱",
                    "Disposed",
                ])
        }

        @Test("The playground's subject examples print RxSwift's output")
        func playgroundSubjects() {
            var output: [String] = []
            let disposeBag = DisposeBag()
            func addObserver<Source: ObservableType>(_ id: String, to source: Source)
            where Source.Element == String {
                source.subscribe { output.append("Subscription: \(id) Event: \($0)") }.disposed(
                    by: disposeBag)
            }
            let publish = PublishSubject<String>()
            addObserver("1", to: publish)
            publish.onNext("🐶")
            addObserver("2", to: publish)
            publish.onNext("🅰️")
            let replay = ReplaySubject<String>.create(bufferSize: 1)
            addObserver("3", to: replay)
            replay.onNext("🐱")
            replay.onNext("🐭")
            addObserver("4", to: replay)
            let behavior = BehaviorSubject(value: "🔴")
            addObserver("5", to: behavior)
            behavior.onNext("🅱️")
            #expect(
                output == [
                    "Subscription: 1 Event: next(🐶)", "Subscription: 1 Event: next(🅰️)",
                    "Subscription: 2 Event: next(🅰️)", "Subscription: 3 Event: next(🐱)",
                    "Subscription: 3 Event: next(🐭)", "Subscription: 4 Event: next(🐭)",
                    "Subscription: 5 Event: next(🔴)", "Subscription: 5 Event: next(🅱️)",
                ])
        }

        @Test("Tutorial-style chains with relays, combining operators and schedulers compile and run")
        func tutorialChains() {
            var output: [String] = []
            var disposeBag = DisposeBag()
            let username = BehaviorRelay<String>(value: "")
            let password = BehaviorRelay<String>(value: "")
            let isValid = BehaviorRelay<Bool>(value: false)
            Observable.combineLatest(username.asObservable(), password.asObservable()) { name, secret in
                name.count >= 3 && secret.count >= 6
            }
            .distinctUntilChanged()
            .bind(to: isValid)
            .disposed(by: disposeBag)
            username.accept("bob")
            password.accept("secret!")
            #expect(isValid.value)

            let items = BehaviorRelay<[String]>(value: [])
            items.accept(items.value + ["one"])
            items.asObservable()
                .map { $0.count }
                .subscribe(onNext: { output.append("count \($0)") })
                .disposed(by: disposeBag)

            let searches = PublishSubject<String>()
            searches
                .filter { !$0.isEmpty }
                .flatMapLatest { query in Observable.just("results for \(query)") }
                .catchAndReturn("failed")
                .subscribe(onNext: { output.append($0) })
                .disposed(by: disposeBag)
            searches.onNext("")
            searches.onNext("rx")

            Observable.zip(Observable.of(1, 2), Observable.of("a", "b"))
                .subscribe(onNext: { number, letter in output.append("\(number)\(letter)") })
                .disposed(by: disposeBag)

            // Scheduler-based code from tutorials compiles unchanged (it is not run here).
            let timed: Observable<Int> = Observable<Int>.interval(
                .seconds(1), scheduler: MainScheduler.instance
            )
            .debounce(.milliseconds(300), scheduler: MainScheduler.instance)
            .throttle(.milliseconds(500), latest: true, scheduler: MainScheduler.instance)
            .observe(on: MainScheduler.instance)
            .subscribe(on: ConcurrentDispatchQueueScheduler(qos: .background))
            .share(replay: 1, scope: .whileConnected)
            .retry(3)
            .do(onNext: { _ in })
            _ = timed

            disposeBag = DisposeBag()
            items.accept(["one", "two"])
            #expect(output == ["count 1", "results for rx", "1a", "2b"])
        }
    }
}
