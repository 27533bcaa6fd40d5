/// The sink of `concat` and `catch(sequence:)`: it subscribes to its sources one after the other
/// and passes their elements through; the subclass says on which terminal event it moves on to
/// the next source (completion for `concat`, an error for `catch(sequence:)`).
///
/// `subscription` holds the subscription to the current source. Only the subscription chain
/// touches `index`, and it is sequential: the next source is subscribed after the previous one
/// terminated.
class SourceListSink<Observer: ObserverType>: ElementSink<Observer> {
    final let subscription = SerialDisposable()
    private let sources: [Observable<Observer.Element>]
    private var index = 0

    init(sources: [Observable<Observer.Element>], observer: Observer, cancel: Cancelable) {
        self.sources = sources
        super.init(observer: observer, cancel: cancel)
    }

    /// The source to subscribe to next, or `nil` when every source has been subscribed.
    final func nextSource() -> Observable<Observer.Element>? {
        guard index < sources.count else { return nil }
        index += 1
        return sources[index - 1]
    }

    final func onNextElement(_ element: Observer.Element) {
        forwardNext(element)
    }
}
