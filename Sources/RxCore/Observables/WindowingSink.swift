/// The parameters of `buffer(timeSpan:count:scheduler:)` and `window(timeSpan:count:scheduler:)`.
typealias WindowParameters = (timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType)

/// What `buffer(timeSpan:count:scheduler:)` and `window(timeSpan:count:scheduler:)` share: the
/// elements are cut into windows, each closed `timeSpan` after it opened or at its `count`th
/// element, whichever comes first; closing a window opens the next one, with a new time span.
/// Subclasses say what a window becomes (an array, an observable) in ``windowClosed()``.
///
/// `lock` guards the window state, here and in the subclass (see ``TimedSink``). Each window has an
/// id; the timer of a window closes it only if it is still the current one.
class WindowingSink<Observer: ObserverType>: TimedSink<WindowParameters, Observer> {
    private var windowId = 0
    private var elementCount = 0

    /// Counts an element into the current window, and closes the window when that fills it. Call
    /// with `lock` held.
    final func countElement() {
        elementCount += 1
        if elementCount == parameters.count {
            closeWindow()
        }
    }

    /// Starts the time span of the current window. Call with `lock` held.
    final func startTimer() {
        let id = windowId
        timer.replace {
            parameters.scheduler.scheduleRelative(id, dueTime: parameters.timeSpan) { id in
                self.lock.withLock {
                    if id == self.windowId { self.closeWindow() }
                }
                return Disposables.create()
            }
        }
    }

    /// Closes the current window and opens the next. Call with `lock` held.
    private func closeWindow() {
        windowId += 1
        elementCount = 0
        windowClosed()
        startTimer()
    }

    /// Emits what the window that just closed becomes and prepares the next one. Called with
    /// `lock` held.
    func windowClosed() {
        rxAbstractMethod()
    }
}
