// RuntimeObject: a Swift handle that owns one reference to a runtime object.
import CInterception
import Synchronization

/// A handle to an object of the runtime, holding one reference to it.
///
/// Creating a handle retains the object and the handle's `deinit` releases it, so the object
/// lives at least as long as any handle to it; its `dealloc` runs when the last reference, from
/// C or Swift, goes away. Handles compare equal and hash alike when they refer to the same
/// object, whatever handle instance they are.
///
/// Send messages with ``send(_:_:)->_``; reach the C object with ``pointer``.
///
/// The one exception is the `this` a method closure receives: like `self` in a Swift or
/// Objective-C method, it is kept alive by the *sender* for the call (a Swift `send` holds its
/// handle; C code that sends holds a reference, as in Objective-C), so it takes no reference of
/// its own while the closure runs. If the closure lets it escape (stores it, hands it to another
/// thread), the handle takes its reference before the method returns, so every handle that
/// outlives a call owns one. To keep the receiver alive past its last other reference *inside*
/// the method, make a handle of your own: `RuntimeObject(retaining: this.pointer)`.
///
/// Thread safety: the handle is immutable and the runtime's reference counting is atomic, so a
/// handle can be shared between threads. Whether the *object's methods* may run concurrently is
/// up to those methods, as in Objective-C.
public final class RuntimeObject: Hashable, @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: the stored properties are immutable but for the atomic ownership
    // flag; `pointer` stays valid for the handle's lifetime because the handle owns a reference
    // (a method closure's `this`: the sender's, then its own if it escapes); the runtime's retain, release and
    // message lookup are thread-safe.

    /// The object (`ic_id`). Valid for as long as this handle lives; it is not retained for you:
    /// use ``retainedPointer()`` to hand C code a reference of its own.
    @inlinable public var pointer: OpaquePointer { storedPointer }

    // `var` only so that a method closure's spare `this` can be pointed at the next receiver
    // (`ThisHandles`), while nothing but the calling thread's cache references it; unchecked
    // exclusivity, so that reading it costs what reading a `let` costs. Internal storage behind
    // the public getter, so that `rebind` can be inlined into the callers' specialized thunks
    // (as a call, it was a call layer of its own on every Swift-method call).
    @usableFromInline @exclusivity(unchecked) var storedPointer: OpaquePointer

    /// The class that defines the method whose closure received this handle as `this`, or `nil`
    /// for handles made any other way. ``sendSuper(_:_:)`` starts its lookup at this class's
    /// superclass, which is what makes super sends right in deep hierarchies: the object's
    /// dynamic class may be any subclass.
    @usableFromInline @exclusivity(unchecked) var methodClass: OpaquePointer?

    /// Whether the handle owns a reference, released by `deinit`: always, but for a method
    /// closure's `this` while its call runs (see `init(borrowing:methodClass:)`).
    /// Set before the handle can be shared, or by the call's own thread once the body returned
    /// (release), read by `deinit` (acquire), wherever the last release happens.
    private let ownsReference: Atomic<Bool>

    /// A handle that takes a new reference to `pointer` (retains it).
    public convenience init(retaining pointer: OpaquePointer) {
        self.init(retaining: pointer, methodClass: nil)
    }

    /// A handle that takes over a reference the caller owns (a +1 pointer, such as the result of
    /// `ic_class_create_instance`); the handle releases it.
    public init(adopting pointer: OpaquePointer) {
        self.storedPointer = pointer
        self.methodClass = nil
        self.ownsReference = Atomic(true)
    }

    init(retaining pointer: OpaquePointer, methodClass: OpaquePointer?) {
        ic_retain(pointer)
        self.storedPointer = pointer
        self.methodClass = methodClass
        self.ownsReference = Atomic(true)
    }

    /// A handle that does not own a reference yet: a method closure's `this`, which the sender
    /// keeps alive for the call. `ThisHandles.call` ends every call of such a handle.
    init(borrowing pointer: OpaquePointer, methodClass: OpaquePointer?) {
        self.storedPointer = pointer
        self.methodClass = methodClass
        self.ownsReference = Atomic(false)
    }

    /// Points a spare borrowed handle (referenced by nothing else) at the next receiver.
    @inlinable @inline(__always)
    func rebind(borrowing pointer: OpaquePointer, methodClass: OpaquePointer?) {
        self.storedPointer = pointer
        self.methodClass = methodClass
    }

    /// Makes a borrowed handle own a reference (it escaped its call).
    func takeOwnership() {
        ic_retain(pointer)
        ownsReference.store(true, ordering: .releasing)
    }

    deinit {
        if ownsReference.load(ordering: .acquiring) {
            ic_release(pointer)
        }
    }

    /// The object, retained for the caller: a reference C code owns and must release.
    public func retainedPointer() -> OpaquePointer {
        ic_retain(pointer)
        return pointer
    }

    /// What the object's `class` message answers: its class, or, for an object that the
    /// interception engine moved into a dynamic subclass, the class it had before.
    public var runtimeClass: RuntimeClass {
        let sel = KnownSelectors.shared.class_.pointer
        let answer = unsafeBitCast(ic_msg_lookup(pointer, sel), to: ClassGetterIMP.self)(pointer, sel)
        guard let answer else {
            preconditionFailure(
                "\(RuntimeError.methodName(actualClass.name, "class", actualClass.isMetaclass)) answered NULL"
            )
        }
        return RuntimeClass(unchecked: answer)
    }

    /// The object's real class pointer (for an intercepted object, the engine's subclass).
    public var actualClass: RuntimeClass { RuntimeClass(unchecked: ic_object_get_class(pointer)) }

    /// Whether the object answers `selector`, as its `respondsToSelector:` method says (a class
    /// may override it to include selectors it forwards).
    public func responds(to selector: Selector) -> Bool {
        let sel = KnownSelectors.shared.respondsToSelector.pointer
        let imp = unsafeBitCast(ic_msg_lookup(pointer, sel), to: BoolSelectorIMP.self)
        return imp(pointer, sel, selector.pointer)
    }

    /// Whether the object's class is `cls` or a subclass of it (the `isKindOfClass:` message).
    public func isKind(of cls: RuntimeClass) -> Bool {
        let sel = KnownSelectors.shared.isKindOfClass.pointer
        let imp = unsafeBitCast(ic_msg_lookup(pointer, sel), to: BoolClassIMP.self)
        return imp(pointer, sel, cls.pointer)
    }

    /// The object's current reference count, this handle's reference included. While the
    /// object is deallocating it counts only the references taken since it started (which do
    /// not keep it alive).
    public var retainCount: Int { ic_object_retain_count(pointer) }

    /// Whether the object is being deallocated (only true inside its `dealloc`).
    public var isDeallocating: Bool { ic_object_is_deallocating(pointer) }

    /// The storage that `cls` (the object's class or one of its superclasses) declared in this
    /// object, 16-byte aligned, ``RuntimeClass/storageSize`` bytes long. The memory belongs to
    /// the object: valid while the object lives, zeroed at creation.
    public func storage(for cls: RuntimeClass) throws(RuntimeError) -> UnsafeMutableRawPointer {
        guard let storage = ic_object_storage_for_class(pointer, cls.pointer) else {
            throw RuntimeError.lastCError()
        }
        return storage
    }

    /// Whether two handles refer to the same object.
    public static func == (lhs: RuntimeObject, rhs: RuntimeObject) -> Bool {
        lhs.pointer == rhs.pointer
    }

    /// Hashes the object's address, so handles to one object hash alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(pointer)
    }

    /// `<ClassName: 0x…>`, naming the object's actual class.
    public var description: String {
        "<\(String(cString: ic_object_class_name(pointer))): \(UnsafeRawPointer(pointer))>"
    }
}

// C types of the root class's methods that this file calls directly (their encodings are fixed
// by the root class: `#@:`, `B@::`, `B@:#`).
typealias ClassGetterIMP = @convention(c) (OpaquePointer?, OpaquePointer?) -> OpaquePointer?
typealias BoolSelectorIMP = @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Bool
typealias BoolClassIMP = @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Bool
typealias VoidIMP = @convention(c) (OpaquePointer?, OpaquePointer?) -> Void
typealias SignatureIMP = @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?) -> OpaquePointer?

/// Selectors the Swift API sends itself, registered once.
struct KnownSelectors: Sendable {
    static let shared = KnownSelectors()

    let class_ = Selector("class")
    let respondsToSelector = Selector("respondsToSelector:")
    let isKindOfClass = Selector("isKindOfClass:")
    let methodSignatureForSelector = Selector("methodSignatureForSelector:")
    let forwardInvocation = Selector("forwardInvocation:")
    let dealloc = Selector("dealloc")
    let retain = Selector("retain")
    let release = Selector("release")
}
