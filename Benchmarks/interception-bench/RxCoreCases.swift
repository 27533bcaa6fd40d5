// RxCore's own cases: events through subjects and operators, and whole subscriptions made per
// operation (SPEC 22). Every loop checks what its subscribers received, in the loop or right
// after it; `rxcore_publish_subscribe` is the unit the others are compared with.
import CInterceptionBench
import Interception

/// `PublishSubject → map → filter → subscribe`, per event.
private func rxcorePipeline(ops: UInt64) -> Double {
    let subject = PublishSubject<Int>()
    var received = 0
    var sum = 0
    let subscription = subject.map { $0 &* 2 }.filter { $0 & 2 == 0 }.subscribe(onNext: {
        received += 1
        sum &+= $0
    })
    var expectedSum = 0
    var expectedCount = 0
    let t0 = icb_now_ns()
    for i in 0..<Int(ops) {
        subject.onNext(i)
    }
    let t1 = icb_now_ns()
    subscription.dispose()
    for i in 0..<Int(ops) where (i &* 2) & 2 == 0 {
        expectedCount += 1
        expectedSum &+= i &* 2
    }
    return received == expectedCount && sum == expectedSum ? t1 - t0 : -1
}

/// `PublishSubject → subscribe`: the cost of one element through a subject to one closure
/// subscriber (the floor under every RxCore pipeline). Checks each delivery in the loop.
private func rxcorePublishSubscribe(ops: UInt64) -> Double {
    let subject = PublishSubject<Int>()
    var last = -1
    let subscription = subject.subscribe(onNext: { last = $0 })
    var bad = 0
    let t0 = icb_now_ns()
    for i in 0..<Int(ops) {
        subject.onNext(i)
        if last != i { bad += 1 }
    }
    let t1 = icb_now_ns()
    subscription.dispose()
    return bad == 0 ? t1 - t0 : -1
}

/// `combineLatest(a, b) → subscribe` over two subjects, one element on each per operation (so
/// two events in and two tuples out). Checks the last tuple and the count of tuples.
private func rxcoreCombineLatest2(ops: UInt64) -> Double {
    let a = PublishSubject<Int>()
    let b = PublishSubject<Int>()
    var last = (-1, -1)
    var received = 0
    let subscription = Observable.combineLatest(a, b).subscribe(onNext: {
        last = $0
        received += 1
    })
    var bad = 0
    let t0 = icb_now_ns()
    for i in 0..<Int(ops) {
        a.onNext(i)
        b.onNext(i &+ 1)
        if last != (i, i &+ 1) { bad += 1 }
    }
    let t1 = icb_now_ns()
    subscription.dispose()
    // The first `a` element finds no `b` element yet; every later event produces a tuple.
    return bad == 0 && received == 2 * Int(ops) - 1 ? t1 - t0 : -1
}

/// `flatMap { .just($0) } → subscribe`, per event: an inner subscription made, completed and
/// released per element. Checks each delivery in the loop.
private func rxcoreFlatMapJust(ops: UInt64) -> Double {
    let subject = PublishSubject<Int>()
    var last = -1
    let subscription = subject.flatMap { Observable.just($0) }.subscribe(onNext: { last = $0 })
    var bad = 0
    let t0 = icb_now_ns()
    for i in 0..<Int(ops) {
        subject.onNext(i)
        if last != i { bad += 1 }
    }
    let t1 = icb_now_ns()
    subscription.dispose()
    return bad == 0 ? t1 - t0 : -1
}

/// `map → share(replay: 1)` with two subscribers, per event. Checks both deliveries in the loop.
private func rxcoreShareReplay1(ops: UInt64) -> Double {
    let subject = PublishSubject<Int>()
    let shared = subject.map { $0 &* 2 }.share(replay: 1)
    var first = -1
    var second = -1
    let subscription1 = shared.subscribe(onNext: { first = $0 })
    let subscription2 = shared.subscribe(onNext: { second = $0 })
    var bad = 0
    let t0 = icb_now_ns()
    for i in 0..<Int(ops) {
        subject.onNext(i)
        if first != i &* 2 || second != i &* 2 { bad += 1 }
    }
    let t1 = icb_now_ns()
    subscription1.dispose()
    subscription2.dispose()
    return bad == 0 ? t1 - t0 : -1
}

/// `Observable.just(i).subscribe(onNext:).dispose()`, per operation: a whole subscription's life.
/// The `onNext` closure is made once, outside the loop, so that the loop pays for the
/// subscription (what `subscribe()` without handlers costs) and not for building a closure; it
/// records the element, which the loop checks.
private func rxcoreJustSubscribeDispose(ops: UInt64) -> Double {
    var last = -1
    let record: (Int) -> Void = { last = $0 }
    var bad = 0
    let t0 = icb_now_ns()
    for i in 0..<Int(ops) {
        Observable.just(i).subscribe(onNext: record).dispose()
        if last != i { bad += 1 }
    }
    let t1 = icb_now_ns()
    return bad == 0 ? t1 - t0 : -1
}

/// `Single.just → map → subscribe(onSuccess:)`, per operation: a trait's whole life (create,
/// subscribe, one element, dispose). Checks each result in the loop.
private func singleMapSubscribe(ops: UInt64) -> Double {
    var result = -1
    var bad = 0
    let t0 = icb_now_ns()
    for i in 0..<Int(ops) {
        _ = Single.just(i).map { $0 &* 3 }.subscribe(onSuccess: { result = $0 })
        if result != i &* 3 { bad += 1 }
    }
    let t1 = icb_now_ns()
    return bad == 0 ? t1 - t0 : -1
}

func rxCoreCases() -> [BenchCase] {
    [
        BenchCase(
            name: "rxcore_publish_map_filter",
            description: "PublishSubject → map → filter → subscribe, per event",
            prepare: { true }, run: rxcorePipeline),
        BenchCase(
            name: "rxcore_publish_subscribe",
            description: "PublishSubject → subscribe, per event",
            prepare: { true }, run: rxcorePublishSubscribe),
        BenchCase(
            name: "rxcore_combine_latest_2",
            description: "combineLatest of two PublishSubjects → subscribe, one event on each per step",
            scale: 0.5, prepare: { true }, run: rxcoreCombineLatest2),
        BenchCase(
            name: "rxcore_flat_map_just",
            description: "PublishSubject → flatMap { .just($0) } → subscribe, per event",
            scale: 0.2, prepare: { true }, run: rxcoreFlatMapJust),
        BenchCase(
            name: "rxcore_share_replay_1",
            description: "PublishSubject → map → share(replay: 1), two subscribers, per event",
            scale: 0.5, prepare: { true }, run: rxcoreShareReplay1),
        BenchCase(
            name: "rxcore_just_subscribe_dispose",
            description: "Observable.just(i).subscribe(onNext:).dispose(), per subscription",
            scale: 0.1, prepare: { true }, run: rxcoreJustSubscribeDispose),
        BenchCase(
            name: "single_map_subscribe",
            description: "Single.just → map → subscribe(onSuccess:), per single",
            scale: 0.05, prepare: { true }, run: singleMapSubscribe),
    ]
}
