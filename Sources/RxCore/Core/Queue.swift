/// A growable FIFO ring buffer. Not synchronized: its owner guards it.
struct RxQueue<Element> {
    private var storage: ContiguousArray<Element?> = []
    private var head = 0
    private(set) var count = 0

    init() {}

    @inline(__always)
    var isEmpty: Bool { count == 0 }

    mutating func enqueue(_ element: Element) {
        if count == storage.count {
            grow()
        }
        storage[(head + count) % storage.count] = element
        count += 1
    }

    mutating func dequeue() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head]
        storage[head] = nil  // release the slot's references now, not when it is overwritten
        head = (head + 1) % storage.count
        count -= 1
        return element
    }

    /// The oldest element, without removing it.
    var first: Element? {
        count > 0 ? storage[head] : nil
    }

    /// The elements from oldest to newest.
    var elements: [Element] {
        (0..<count).map { storage[(head + $0) % storage.count]! }
    }

    mutating func removeAll() {
        storage = []
        head = 0
        count = 0
    }

    private mutating func grow() {
        var newStorage = ContiguousArray<Element?>(repeating: nil, count: Swift.max(4, storage.count * 2))
        for index in 0..<count {
            newStorage[index] = storage[(head + index) % storage.count]
        }
        storage = newStorage
        head = 0
    }
}
