// The traits made from an `async` function (RxSwift's and RxCocoa's `from(_:)` of the
// concurrency bridges): each subscription runs the function in a new task, emits what it returns
// (or fails with what it throws), and disposing the subscription cancels the task, after which
// nothing more is emitted.

/// Runs `block` in a new task per subscription (detached from the subscriber's task when
/// `detached`, with `priority`) and reports its result to `report` unless the subscription was
/// disposed first; the disposable cancels the task.
///
/// The block and the report move into the task and are used only there, by one task at a time
/// (RxSwift's `from` takes a closure that is not `@Sendable` either): they travel as
/// `UncheckedSendable`.
private func runInTask<Value>(
    priority: TaskPriority?, detached: Bool, _ block: @escaping () async throws -> Value,
    report: @escaping (Result<Value, Swift.Error>) -> Void
) -> Disposable {
    let work = UncheckedSendable(block)
    let deliver = UncheckedSendable(report)
    let operation: @Sendable () async -> Void = {
        let result: Result<Value, Swift.Error>
        do {
            result = .success(try await work.value())
        } catch {
            result = .failure(error)
        }
        if !Task.isCancelled { deliver.value(UncheckedSendable(result).value) }
    }
    let task =
        detached
        ? Task.detached(priority: priority, operation: operation)
        : Task(priority: priority, operation: operation)
    return Disposables.create { task.cancel() }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// A single whose element is what `block` returns, or whose error is what it throws. Each
    /// subscription runs `block` in a new task (detached from the subscriber's task when
    /// `detached`, with `priority`); disposing the subscription cancels the task.
    public static func from(
        priority: TaskPriority? = nil, detached: Bool = false, _ block: @escaping () async throws -> Element
    ) -> Single<Element> {
        Single<Element>.create { observer in
            runInTask(priority: priority, detached: detached, block) { observer($0) }
        }
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// A maybe whose element is what `block` returns, or whose error is what it throws; with no
    /// block, a maybe that completes empty. Each subscription runs `block` in a new task (detached
    /// from the subscriber's task when `detached`, with `priority`); disposing the subscription
    /// cancels the task.
    public static func from(
        priority: TaskPriority? = nil, detached: Bool = false, _ block: (() async throws -> Element)?
    ) -> Maybe<Element> {
        // Without a block, the task completes the maybe: in a task as with one, as RxSwift does.
        Maybe<Element>.create { observer in
            runInTask(priority: priority, detached: detached, { try await block?() }) { result in
                switch result {
                case .success(.some(let element)): observer(.success(element))
                case .success(.none): observer(.completed)
                case .failure(let error): observer(.error(error))
                }
            }
        }
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
    /// A completable that completes when `block` returns, or fails with what it throws. Each
    /// subscription runs `block` in a new task (detached from the subscriber's task when
    /// `detached`, with `priority`); disposing the subscription cancels the task.
    public static func from(
        priority: TaskPriority? = nil, detached: Bool = false, _ block: @escaping () async throws -> Void
    ) -> Completable {
        Completable.create { observer in
            runInTask(priority: priority, detached: detached, block) { result in
                switch result {
                case .success: observer(.completed)
                case .failure(let error): observer(.error(error))
                }
            }
        }
    }
}

extension InfallibleType {
    /// An infallible that emits what `block` returns, then completes. Each subscription runs
    /// `block` in a new task (detached from the subscriber's task when `detached`, with
    /// `priority`); disposing the subscription cancels the task.
    public static func from(
        priority: TaskPriority? = nil, detached: Bool = false, _ block: @escaping () async -> Element
    ) -> Infallible<Element> {
        Infallible<Element>.create { observer in
            runInTask(priority: priority, detached: detached, { await block() }) { result in
                if case .success(let element) = result {
                    observer(.next(element))
                    observer(.completed)
                }
            }
        }
    }
}

extension SharedSequence where SharingStrategy == DriverSharingStrategy {
    /// A driver of what `block` returns, or of `onErrorJustReturn` if it throws (the task as in
    /// `Single.from`).
    public static func from(
        priority: TaskPriority? = nil, detached: Bool = false, _ block: @escaping () async throws -> Element,
        onErrorJustReturn: Element
    ) -> Driver<Element> {
        Single.from(priority: priority, detached: detached, block).asDriver(
            onErrorJustReturn: onErrorJustReturn)
    }

    /// A driver of what `block` returns, continued by `onErrorDriveWith` if it throws.
    public static func from(
        priority: TaskPriority? = nil, detached: Bool = false, _ block: @escaping () async throws -> Element,
        onErrorDriveWith: Driver<Element>
    ) -> Driver<Element> {
        Single.from(priority: priority, detached: detached, block).asDriver(
            onErrorDriveWith: onErrorDriveWith)
    }

    /// A driver of what `block` returns, continued by the driver `onErrorRecover` makes of the
    /// error if it throws.
    public static func from(
        priority: TaskPriority? = nil, detached: Bool = false, _ block: @escaping () async throws -> Element,
        onErrorRecover: @escaping (Swift.Error) -> Driver<Element>
    ) -> Driver<Element> {
        Single.from(priority: priority, detached: detached, block).asDriver(onErrorRecover: onErrorRecover)
    }
}

extension SharedSequence where SharingStrategy == SignalSharingStrategy {
    /// A signal of what `block` returns, or of `onErrorJustReturn` if it throws.
    public static func from(
        priority: TaskPriority? = nil, detached: Bool = false, _ block: @escaping () async throws -> Element,
        onErrorJustReturn: Element
    ) -> Signal<Element> {
        Single.from(priority: priority, detached: detached, block).asSignal(
            onErrorJustReturn: onErrorJustReturn)
    }

    /// A signal of what `block` returns, continued by `onErrorSignalWith` if it throws.
    public static func from(
        priority: TaskPriority? = nil, detached: Bool = false, _ block: @escaping () async throws -> Element,
        onErrorSignalWith: Signal<Element>
    ) -> Signal<Element> {
        Single.from(priority: priority, detached: detached, block).asSignal(
            onErrorSignalWith: onErrorSignalWith)
    }

    /// A signal of what `block` returns, continued by the signal `onErrorRecover` makes of the
    /// error if it throws.
    public static func from(
        priority: TaskPriority? = nil, detached: Bool = false, _ block: @escaping () async throws -> Element,
        onErrorRecover: @escaping (Swift.Error) -> Signal<Element>
    ) -> Signal<Element> {
        Single.from(priority: priority, detached: detached, block).asSignal(onErrorRecover: onErrorRecover)
    }
}
