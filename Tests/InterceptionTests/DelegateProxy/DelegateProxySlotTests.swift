// The registry per (parent class, slot) (SPEC 17.2, issue 28 item 1), its errors (item 4), and
// rx.delegate on an object without a proxy type (issue 34 item 1).
@testable import Interception
import RxCore
import Testing

/// Delegate, data source and prefetch data source protocols of a view and its table subclass.
private let viewDelegateProtocol = try! RuntimeProtocol.define(uniqueName("SlotViewDelegate")) { p in
    try p.optional("view:didScroll:", (RuntimeObject?, Double).self)
}
private let tableDataSourceProtocol = try! RuntimeProtocol.define(uniqueName("SlotTableDataSource")) { p in
    try p.optional("numberOfRowsIn:", RuntimeObject?.self, returns: Int.self)
}
private let tablePrefetchProtocol = try! RuntimeProtocol.define(uniqueName("SlotTablePrefetch")) { p in
    try p.optional("table:prefetch:", (RuntimeObject?, Int).self)
}

/// A view with a weak `delegate`; a table subclass adding `dataSource` and
/// `prefetchDataSource`; a subclass of the table with nothing of its own.
private let slotView = try! RuntimeClass.define(uniqueName("SlotView")) { c in
    try c.property("delegate", RuntimeObject?.self, .weak)
}
private let slotTable = try! RuntimeClass.define(uniqueName("SlotTable"), superclass: slotView) { c in
    try c.property("dataSource", RuntimeObject?.self, .weak)
    try c.property("prefetchDataSource", RuntimeObject?.self, .weak)
}
private let slotSubtable = try! RuntimeClass.define(uniqueName("SlotSubtable"), superclass: slotTable) { _ in
}

private final class ViewDelegateProxy: DelegateProxy<RuntimeObject, RuntimeObject>, DelegateProxyType,
    HasDelegate, @unchecked Sendable
{
    init(view: RuntimeObject) {
        super.init(
            parentObject: view, delegateProxy: ViewDelegateProxy.self, delegateProtocol: viewDelegateProtocol)
    }
    static func registerKnownImplementations() throws {
        try register(slotView) { ViewDelegateProxy(view: $0) }
    }
}

private final class TableDataSourceProxy: DelegateProxy<RuntimeObject, RuntimeObject>, DelegateProxyType,
    HasDataSource, @unchecked Sendable
{
    init(table: RuntimeObject) {
        super.init(
            parentObject: table, delegateProxy: TableDataSourceProxy.self,
            delegateProtocol: tableDataSourceProtocol)
    }
    static func registerKnownImplementations() throws {
        try register(slotTable) { TableDataSourceProxy(table: $0) }
    }
}

private final class TablePrefetchProxy: DelegateProxy<RuntimeObject, RuntimeObject>, DelegateProxyType,
    HasDelegateSlot, @unchecked Sendable
{
    static var delegateSlot: String { "prefetchDataSource" }
    init(table: RuntimeObject) {
        super.init(
            parentObject: table, delegateProxy: TablePrefetchProxy.self,
            delegateProtocol: tablePrefetchProtocol)
    }
    static func registerKnownImplementations() throws {
        try register(slotTable) { TablePrefetchProxy(table: $0) }
    }
}

/// Registered once for the whole suite (a second registration is an error, by design).
private let registered: Void = {
    try! ViewDelegateProxy.registerKnownImplementations()
    try! TableDataSourceProxy.registerKnownImplementations()
    try! TablePrefetchProxy.registerKnownImplementations()
}()

@Suite("DelegateProxy: one proxy type per (parent class, slot)")
struct DelegateProxySlotTests {
    init() { registered }

    @Test(
        "a data-source proxy of the subclass leaves rx.delegate the superclass's delegate proxy, in its own slot"
    )
    func delegateIsTheDelegateSlot() throws {
        let table = slotTable.new()
        let dataSource = TableDataSourceProxy.proxy(for: table)
        let delegate = try table.rx.delegate
        #expect(delegate is ViewDelegateProxy)
        #expect(delegate !== dataSource)
        #expect(try table.value(forKey: "delegate", as: RuntimeObject?.self) == delegate.object)
        #expect(try table.value(forKey: "dataSource", as: RuntimeObject?.self) == dataSource.object)
        #expect(try table.rx.dataSource === dataSource)
    }

    @Test(
        "three slots through the hierarchy: each accessor gives its slot's proxy, installed in that slot only"
    )
    func threeSlots() throws {
        let subtable = slotSubtable.new()
        let prefetch = try subtable.rx.delegateProxy(slot: "prefetchDataSource")
        let dataSource = try subtable.rx.dataSource
        let delegate = try subtable.rx.delegate
        #expect(prefetch is TablePrefetchProxy)
        #expect(dataSource is TableDataSourceProxy)
        #expect(delegate is ViewDelegateProxy)
        for (slot, proxy) in [
            ("prefetchDataSource", prefetch), ("dataSource", dataSource), ("delegate", delegate),
        ] {
            #expect(try subtable.value(forKey: slot, as: RuntimeObject?.self) == proxy.object)
        }
        #expect(try subtable.rx.delegate === delegate)  // one per (parent, proxy type)
        // A plain view has only the delegate slot.
        let view = slotView.new()
        #expect(try view.rx.delegate is ViewDelegateProxy)
        #expect(throws: DelegateProxyError.noProxyType(className: slotView.name, slot: "dataSource")) {
            try view.rx.dataSource
        }
    }

    @Test("rx.delegate on an object whose class has no proxy type throws instead of trapping")
    func noProxyTypeIsAnError() throws {
        let plain = try RuntimeClass.define(uniqueName("NoDelegateSlot")) { _ in }.new()
        #expect(throws: DelegateProxyError.noProxyType(className: plain.runtimeClass.name, slot: "delegate"))
        {
            try plain.rx.delegate
        }
        // The delegate itself (every runtime object has rx.delegate).
        let proxyObject = try slotView.new().rx.delegate.object
        #expect(throws: DelegateProxyError.self) { try proxyObject.rx.delegate }
    }

    @Test("a second factory for the same proxy type and class is an error, and the first stays")
    func secondFactoryIsRefused() throws {
        #expect(
            throws: DelegateProxyError.factoryAlreadyRegistered(
                proxyType: String(reflecting: ViewDelegateProxy.self), parentClass: slotView.name)
        ) {
            try ViewDelegateProxy.register(slotView) { _ in fatalError("the second factory must not run") }
        }
        #expect(throws: DelegateProxyError.self) { try ViewDelegateProxy.registerKnownImplementations() }
        let view = slotView.new()
        #expect(ViewDelegateProxy.createProxy(for: view).parentObject == view)
    }

    @Test("registering for a class without the slot's getter and setter is an error")
    func slotMustExist() throws {
        let bare = try RuntimeClass.define(uniqueName("SlotBare")) { _ in }
        #expect(throws: DelegateProxyError.slotNotFound(parentClass: bare.name, slot: "dataSource")) {
            try TableDataSourceProxy.register(bare) { TableDataSourceProxy(table: $0) }
        }
    }

    @Test(
        "installForwardDelegate over a forward delegate is an error unless replacing; disposal undoes only its own"
    )
    func installForwardDelegateRules() throws {
        let view = slotView.new()
        let delegateClass = try RuntimeClass.define(
            uniqueName("SlotDelegate"), conformsTo: [viewDelegateProtocol]
        ) {
            _ in
        }
        let first = delegateClass.new()
        let second = delegateClass.new()
        let third = delegateClass.new()
        let proxy = ViewDelegateProxy.proxy(for: view)
        let installFirst = try ViewDelegateProxy.installForwardDelegate(
            first, retainDelegate: false, onProxyForObject: view)
        #expect(
            throws: DelegateProxyError.forwardDelegateAlreadySet(parentClass: slotView.name, slot: "delegate")
        ) {
            try ViewDelegateProxy.installForwardDelegate(
                second, retainDelegate: false, onProxyForObject: view)
        }
        #expect(proxy.forwardToDelegate() == first)  // the refused call changed nothing
        let installSecond = try ViewDelegateProxy.installForwardDelegate(
            second, retainDelegate: false, onProxyForObject: view, replacingExisting: true)
        #expect(proxy.forwardToDelegate() == second)
        installSecond.dispose()
        #expect(proxy.forwardToDelegate() == first)  // what it replaced
        // Someone set another forward delegate since: disposing leaves it.
        proxy.setForwardToDelegate(third, retainDelegate: false)
        installFirst.dispose()
        #expect(proxy.forwardToDelegate() == third)
        withExtendedLifetime((first, second, third)) {}
    }
}
