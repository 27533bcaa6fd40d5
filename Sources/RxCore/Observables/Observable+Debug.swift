import Foundation

extension ObservableType {
    /// Prints every subscription, event and disposal of this sequence, prefixed with the time and
    /// `identifier` (by default, the file, line and function of the call). With `trimOutput`,
    /// event descriptions longer than 40 characters are shortened.
    public func debug(
        _ identifier: String? = nil, trimOutput: Bool = false, file: String = #file, line: UInt = #line,
        function: String = #function
    ) -> Observable<Element> {
        let name = identifier ?? "\((file as NSString).lastPathComponent):\(line) (\(function))"
        return Debug(asObservable(), (identifier: name, trimOutput: trimOutput))
    }
}

/// Prints `content` for the sequence named `identifier`, as RxSwift's `debug` does.
private func debugLog(_ identifier: String, _ content: String) {
    let formatter = DateFormatter()
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
    print("\(formatter.string(from: Date())): \(identifier) -> \(content)")
}

private final class DebugSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let identifier: String
    private let trimOutput: Bool

    init(identifier: String, trimOutput: Bool, observer: Observer, cancel: Cancelable) {
        self.identifier = identifier
        self.trimOutput = trimOutput
        super.init(observer: observer, cancel: cancel)
        debugLog(identifier, "subscribed")
    }

    func on(_ event: Event<Element>) {
        var description = "\(event)"
        if trimOutput && description.count > 40 {
            description = description.prefix(20) + "..." + description.suffix(17)
        }
        debugLog(identifier, "Event \(description)")
        forwardOn(event)
        if event.isStopEvent {
            dispose()
        }
    }

    override func dispose() {
        if !isDisposed {
            debugLog(identifier, "isDisposed")
        }
        super.dispose()
    }
}

private final class Debug<Element>: SourceProducer<Element, (identifier: String, trimOutput: Bool), Element> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(
            DebugSink(
                identifier: parameters.identifier, trimOutput: parameters.trimOutput, observer: observer,
                cancel: cancel))
    }
}
