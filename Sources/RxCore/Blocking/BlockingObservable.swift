import Dispatch
import Foundation

extension ObservableConvertibleType {
    /// A blocking view of this sequence, for tests and command-line tools (RxBlocking's
    /// `toBlocking`): its methods subscribe and wait for the sequence to end, failing with
    /// `RxError.timeout` after `timeout` seconds. Called on the main thread, they keep the main
    /// run loop (and with it the main queue) running while they wait, as RxBlocking does, so a
    /// sequence delivered on ``MainScheduler`` can end.
    public func toBlocking(timeout: TimeInterval? = nil) -> BlockingObservable<Element> {
        BlockingObservable(source: asObservable(), timeout: timeout)
    }
}

/// The result of `BlockingObservable.materialize()`: the elements, and how the sequence ended.
public enum MaterializedSequenceResult<Element> {
    /// The sequence completed after `elements`.
    case completed(elements: [Element])
    /// The sequence failed with `error` after `elements`.
    case failed(elements: [Element], error: Swift.Error)
}

/// A sequence whose elements are read by waiting for them (RxBlocking's `BlockingObservable`).
public struct BlockingObservable<Element> {
    let source: Observable<Element>
    let timeout: TimeInterval?

    /// All the elements, once the sequence completes; throws its error.
    public func toArray() throws -> [Element] {
        let result = run()
        if let error = result.error { throw error }
        return result.elements
    }

    /// The first element, or nil if the sequence completes empty; throws its error.
    public func first() throws -> Element? {
        let result = run(stopAfter: 1)
        if let error = result.error { throw error }
        return result.elements.first
    }

    /// The last element, or nil if the sequence completes empty; throws its error.
    public func last() throws -> Element? {
        let result = run()
        if let error = result.error { throw error }
        return result.elements.last
    }

    /// The only element; throws `RxError.noElements` or `RxError.moreThanOneElement` otherwise.
    public func single() throws -> Element {
        try single { _ in true }
    }

    /// The only element `predicate` accepts; throws `RxError.noElements` or
    /// `RxError.moreThanOneElement` otherwise. Stops at the second accepted element, as RxBlocking
    /// does: `predicate` sees no element after it, and a sequence that never ends still answers.
    public func single(_ predicate: @escaping (Element) throws -> Bool) throws -> Element {
        let result = run(stopAfter: 2, where: predicate)
        if let error = result.error { throw error }
        guard let element = result.elements.first else { throw RxError.noElements }
        guard result.elements.count == 1 else { throw RxError.moreThanOneElement }
        return element
    }

    /// The elements and how the sequence ended (a timeout is a failure with `RxError.timeout`).
    public func materialize() -> MaterializedSequenceResult<Element> {
        let result = run()
        if let error = result.error {
            return .failed(elements: result.elements, error: error)
        }
        return .completed(elements: result.elements)
    }

    /// Subscribes, waits for the end (or for `max` elements `predicate` accepts) and returns
    /// the accepted elements that arrived.
    private func run(stopAfter max: Int? = nil, where predicate: ((Element) throws -> Bool)? = nil)
        -> (elements: [Element], error: Swift.Error?)
    {
        let state = BlockingState<Element>(max: max, predicate: predicate)
        let subscription = source.subscribe { event in
            state.record(event)
        }
        let finished: Bool
        if Thread.isMainThread {
            finished = state.runMainLoop(until: timeout.map { Date(timeIntervalSinceNow: $0) })
        } else if let timeout {
            finished = state.done.wait(timeout: .now() + timeout) == .success
        } else {
            state.done.wait()
            finished = true
        }
        subscription.dispose()
        return state.result(timedOut: !finished)
    }
}

/// What a blocking subscription received; `lock` guards `elements`, `error` and `ended`.
private final class BlockingState<Element>: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var elements: [Element] = []
    private var error: Swift.Error?
    private var ended = false
    /// How many accepted elements end the wait (`nil`: only the sequence's end does).
    private let max: Int?
    /// Which elements count (`nil`: all); called outside `lock`, never after the end.
    private let predicate: ((Element) throws -> Bool)?

    init(max: Int?, predicate: ((Element) throws -> Bool)?) {
        self.max = max
        self.predicate = predicate
    }

    func record(_ event: Event<Element>) {
        var event = event
        if case .next(let element) = event, let predicate {
            guard !isEnded else { return }
            do {
                guard try predicate(element) else { return }
            } catch {
                event = .error(error)
            }
        }
        lock.lock()
        if ended {
            lock.unlock()
            return
        }
        switch event {
        case .next(let element):
            elements.append(element)
            if let max, elements.count >= max { ended = true }
        case .error(let error):
            self.error = error
            ended = true
        case .completed:
            ended = true
        }
        let signal = ended
        lock.unlock()
        if signal { done.signal() }
    }

    /// Runs the current (main) run loop, which also drains the main queue, until the sequence
    /// has ended or `deadline` has passed; returns whether it ended. The run loop runs in short
    /// slices because the end arrives through `record`, which does not wake it.
    func runMainLoop(until deadline: Date?) -> Bool {
        while true {
            if isEnded { return true }
            if let deadline, deadline.timeIntervalSinceNow <= 0 { return false }
            let slice = Date(timeIntervalSinceNow: 0.001)
            _ = RunLoop.current.run(mode: .default, before: deadline.map { min($0, slice) } ?? slice)
        }
    }

    private var isEnded: Bool {
        lock.lock()
        defer { lock.unlock() }
        return ended
    }

    func result(timedOut: Bool) -> (elements: [Element], error: Swift.Error?) {
        lock.lock()
        defer { lock.unlock() }
        if timedOut && !ended { return (elements, RxError.timeout) }
        return (elements, error)
    }
}
