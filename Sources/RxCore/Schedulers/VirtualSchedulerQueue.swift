/// The queue of a ``VirtualTimeScheduler``: a binary min-heap of scheduled items ordered by due
/// time, then by id (the order they were scheduled in), so that items due at the same time run
/// in scheduling order. Insertion and removal of the first item are O(log n) (RxSwift's
/// `PriorityQueue`); tests schedule tens of thousands of items.
struct VirtualSchedulerQueue<Time> {
    private var heap: [VirtualSchedulerItem<Time>] = []
    // Whether the first item comes strictly before the second.
    private let precedes: (VirtualSchedulerItem<Time>, VirtualSchedulerItem<Time>) -> Bool

    /// A queue ordered by `compare` on the items' times, then by their ids.
    init(compare: @escaping (Time, Time) -> VirtualTimeComparison) {
        precedes = { lhs, rhs in
            switch compare(lhs.time, rhs.time) {
            case .lessThan: return true
            case .greaterThan: return false
            case .equal: return lhs.id < rhs.id
            }
        }
    }

    /// The item that runs next, if any.
    var first: VirtualSchedulerItem<Time>? { heap.first }

    /// Adds `item`.
    mutating func insert(_ item: VirtualSchedulerItem<Time>) {
        heap.append(item)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes the item that runs next; the queue must not be empty.
    mutating func removeFirst() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, precedes(heap[left], heap[smallest]) { smallest = left }
            if right < heap.count, precedes(heap[right], heap[smallest]) { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
