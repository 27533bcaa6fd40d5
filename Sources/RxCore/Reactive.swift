// Placeholder until the RxCore issue lands.
public struct Reactive<Base> {
    public let base: Base
    public init(_ base: Base) { self.base = base }
}
