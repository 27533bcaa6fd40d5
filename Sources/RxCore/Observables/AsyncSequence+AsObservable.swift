extension AsyncSequence {
    /// The elements of this sequence as an ``Observable``: each subscription iterates it in a new
    /// task (detached from the subscriber's task when `detached`), emits its elements, then
    /// completes, or fails with its error; a `CancellationError` it throws completes it, as in
    /// RxSwift. Disposing cancels the task (and emits nothing more).
    public func asObservable(detached: Bool = false) -> Observable<Element> {
        // The sequence and each observer move into the iterating task and are used only there.
        let sequence = UncheckedSendable(self)
        return Observable.create { observer in
            let iterate: () async -> Void = {
                do {
                    for try await element in sequence.value {
                        if Task.isCancelled { return }
                        observer.onNext(element)
                    }
                    if !Task.isCancelled { observer.onCompleted() }
                } catch is CancellationError {
                    if !Task.isCancelled { observer.onCompleted() }
                } catch {
                    if !Task.isCancelled { observer.onError(error) }
                }
            }
            // The task only runs `iterate`, which nothing else uses.
            let work = UncheckedSendable(iterate)
            let task = detached ? Task.detached { await work.value() } : Task { await work.value() }
            return Disposables.create { task.cancel() }
        }
    }
}
