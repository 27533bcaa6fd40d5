// Helpers shared by the C runtime's test suites: selector and class shorthands, IMP casts, and
// unique names (all suites run in parallel in one process, and class names are global).
import CInterception
import Synchronization
import Testing

typealias ID = OpaquePointer
typealias SEL = OpaquePointer
typealias CLS = OpaquePointer

/// The selector named `name`, registered if needed.
func sel(_ name: String) -> SEL { ic_sel_register(name)! }

private let nameCounter = Atomic<Int>(0)

/// A class name no other test uses.
func uniqueName(_ base: String) -> String {
    "\(base)_\(nameCounter.add(1, ordering: .relaxed).newValue)"
}

/// Casts a `@convention(c)` function to the runtime's IMP type.
func imp<F>(_ function: F) -> ic_imp {
    precondition(MemoryLayout<F>.size == MemoryLayout<ic_imp>.size)
    return unsafeBitCast(function, to: ic_imp.self)
}

/// Casts an IMP to the `@convention(c)` function type it really has.
func fn<F>(_ imp: ic_imp?, as type: F.Type) -> F {
    unsafeBitCast(imp!, to: type)
}

/// The IMP `receiver` runs for `name`, cast to `type`.
func lookup<F>(_ receiver: ID?, _ name: String, as type: F.Type) -> F {
    fn(ic_msg_lookup(receiver, sel(name)), as: type)
}

/// Allocates, fills with `methods` (and class methods, on its metaclass) and registers a class
/// with a unique name.
@discardableResult
func makeClass(
    _ base: String, superclass: CLS? = nil, storage: Int = 0,
    methods: [(String, ic_imp, String)] = [], classMethods: [(String, ic_imp, String)] = []
) throws -> CLS {
    let cls = try #require(ic_class_allocate(uniqueName(base), superclass, storage))
    for (name, implementation, types) in methods {
        try #require(ic_class_add_method(cls, sel(name), implementation, types) == IC_OK)
    }
    for (name, implementation, types) in classMethods {
        try #require(ic_class_add_class_method(cls, sel(name), implementation, types) == IC_OK)
    }
    try #require(ic_class_register(cls) == IC_OK)
    return cls
}

/// The current thread's last error, as a Swift string.
var lastErrorMessage: String { String(cString: ic_error_message()) }

// Common IMP shapes.
typealias VoidIMP = @convention(c) (ID?, SEL?) -> Void
typealias Int32IMP = @convention(c) (ID?, SEL?) -> Int32
typealias Int32Int32IMP = @convention(c) (ID?, SEL?, Int32) -> Int32
typealias ObjectIMP = @convention(c) (ID?, SEL?) -> ID?
typealias ClassIMP = @convention(c) (ID?, SEL?) -> CLS?
typealias BoolSelIMP = @convention(c) (ID?, SEL?, SEL?) -> Bool
typealias BoolClassIMP = @convention(c) (ID?, SEL?, CLS?) -> Bool
typealias DoubleIMP = @convention(c) (ID?, SEL?) -> Double

/// For test IMPs that make a super send: the superclass of the nearest class (from the
/// receiver's class up) that itself implements `cmd`. Right as long as only one class of the
/// chain implements it, which the tests using it ensure.
func superclassForSuperSend(_ this: ID?, _ cmd: SEL?) -> CLS? {
    var cls = ic_object_get_class(this)
    while let c = cls, ic_class_get_own_method(c, cmd) == nil {
        cls = ic_class_superclass(c)
    }
    return ic_class_superclass(cls)
}

/// Runs `body` with a weak location (two words, NULL; the second is scratch for tests that need
/// one), destroyed afterwards.
func withWeak<R>(_ body: (UnsafeMutablePointer<ID?>) throws -> R) rethrows -> R {
    let p = UnsafeMutablePointer<ID?>.allocate(capacity: 2)
    p.initialize(repeating: nil, count: 2)
    defer {
        ic_weak_destroy(p)
        p.deallocate()
    }
    return try body(p)
}
