// The Swift types a property observes as (SPEC 17.4; issue 28 item 8): optionals stay optional,
// enums with raw values, numeric conversions that hold every value observed exactly.
@testable import Interception
import RxCore
import Testing

private let typedHolder = try! RuntimeClass.define(uniqueName("TypedHolder")) { c in
    try c.property("title", String.self)
    try c.property("int32", Int32.self)
    try c.property("uint64", UInt64.self)
    try c.property("integer", Int.self)
    try c.property("ratio", Double.self)
}

private enum IntEnum: Int { case one, two }
private enum Int32Enum: Int32 { case one, two }
private enum UInt32Enum: UInt32 { case one, two }

private final class Values<E>: @unchecked Sendable {
    private let lock = Lock()
    private var stored: [E?] = []
    var all: [E?] { lock.withLock { stored } }
    func subscribe(_ observable: Observable<E?>) -> Disposable {
        observable.subscribe(onNext: { value in self.lock.withLock { self.stored.append(value) } })
    }
}

@Suite("Property observation: the types a value observes as")
struct ObservedValueTypeTests {
    @Test("a String property never set observes as nil, not the empty string")
    func nilString() throws {
        let holder = typedHolder.new()
        let values = Values<String>()
        let subscription = values.subscribe(holder.rx.observe(String.self, "title"))
        defer { subscription.dispose() }
        try holder.setValue("a", forKey: "title")
        #expect(values.all == [nil, "a"])
        #expect(try holder.value(forKey: "title", as: String.self) == "a")
    }

    @Test("an Int32 property observes as Int, Int64, Double; as Int8, a value it cannot hold is nil")
    func widening() throws {
        let holder = typedHolder.new()
        try holder.setValue(Int32(5), forKey: "int32")
        let asInt = Values<Int>()
        let asDouble = Values<Double>()
        let asInt8 = Values<Int8>()
        let bag = DisposeBag()
        asInt.subscribe(holder.rx.observe(Int.self, "int32")).disposed(by: bag)
        asDouble.subscribe(holder.rx.observeWeakly(Double.self, "int32")).disposed(by: bag)
        asInt8.subscribe(holder.rx.observe(Int8.self, "int32")).disposed(by: bag)
        try holder.setValue(Int32(-300), forKey: "int32")
        #expect(asInt.all == [5, -300])
        #expect(asDouble.all == [5, -300])
        #expect(asInt8.all == [5, nil])
    }

    @Test("a UInt64 property observes as UInt32 where the value fits, nil where it does not")
    func narrowingWhereValuesFit() throws {
        let holder = typedHolder.new()
        try holder.setValue(UInt64(1), forKey: "uint64")
        let values = Values<UInt32>()
        let subscription = values.subscribe(holder.rx.observe(UInt32.self, "uint64"))
        defer { subscription.dispose() }
        try holder.setValue(UInt64(1) << 40, forKey: "uint64")
        try holder.setValue(UInt64(7), forKey: "uint64")
        #expect(values.all == [1, nil, 7])
    }

    @Test("an enum with an integer raw value observes directly, from a property of any integer type")
    func enums() throws {
        let holder = typedHolder.new()
        let intEnum = Values<IntEnum>()
        let int32Enum = Values<Int32Enum>()
        let uint32Enum = Values<UInt32Enum>()
        let bag = DisposeBag()
        intEnum.subscribe(holder.rx.observe(IntEnum.self, "integer")).disposed(by: bag)
        int32Enum.subscribe(holder.rx.observe(Int32Enum.self, "int32")).disposed(by: bag)
        uint32Enum.subscribe(holder.rx.observeWeakly(UInt32Enum.self, "uint64")).disposed(by: bag)
        try holder.setValue(1, forKey: "integer")
        try holder.setValue(Int32(1), forKey: "int32")
        try holder.setValue(UInt64(1), forKey: "uint64")
        try holder.setValue(5, forKey: "integer")  // no such case
        #expect(intEnum.all == [.one, .two, nil])
        #expect(int32Enum.all == [.one, .two])
        #expect(uint32Enum.all == [.one, .two])
    }

    @Test("a type that is not numeric still has to be the key's type")
    func otherMismatchesStayErrors() throws {
        let holder = typedHolder.new()
        var failed = false
        _ = holder.rx.observe(String.self, "integer").subscribe(onError: { _ in failed = true })
        #expect(failed)
    }
}
