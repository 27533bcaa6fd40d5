// interception-demo: a short tour of the runtime, printing what it observes.
//
// This first version tours the C object runtime through its C API; the interception tour
// (sentMessage / methodInvoked / deallocating / deallocated) replaces it when the Swift
// bindings land.
import CInterception

typealias ID = OpaquePointer
typealias SEL = OpaquePointer

func sel(_ name: String) -> SEL { ic_sel_register(name)! }

func imp<F>(_ f: F) -> ic_imp { unsafeBitCast(f, to: ic_imp.self) }

func check(_ status: ic_status) {
    guard status == IC_OK else {
        fatalError("\(String(cString: ic_status_name(status))): \(String(cString: ic_error_message()))")
    }
}

print("Interception runtime \(String(cString: ic_runtime_version()))")

// 1. A class defined at runtime, with a method taking and returning an int.
typealias AddIMP = @convention(c) (ID?, SEL?, Int32) -> Int32
let add: AddIMP = { _, _, x in x + 1 }
let counterClass = ic_class_allocate("Counter", nil, 0)!
check(ic_class_add_method(counterClass, sel("add:"), imp(add), "i@:i"))
check(ic_class_register(counterClass))
let counter = ic_class_create_instance(counterClass)!
let send = unsafeBitCast(ic_msg_lookup(counter, sel("add:")), to: AddIMP.self)
print("[Counter add:41] -> \(send(counter, sel("add:"), 41))")

// 2. Forwarding: a proxy that implements nothing but forwards every call to the counter.
typealias SignatureIMP = @convention(c) (ID?, SEL?, SEL?) -> OpaquePointer?
typealias ForwardIMP = @convention(c) (ID?, SEL?, OpaquePointer?) -> Void
let signature: SignatureIMP = { this, _, s in
    let target = ic_object_storage(this)!.load(as: ID?.self)
    let f = unsafeBitCast(ic_msg_lookup(target, sel("methodSignatureForSelector:")), to: SignatureIMP.self)
    return f(target, sel("methodSignatureForSelector:"), s)
}
let forward: ForwardIMP = { this, _, invocation in
    print("  forwardInvocation: \(String(cString: ic_sel_name(ic_invocation_selector(invocation))))")
    ic_invocation_set_target(invocation, ic_object_storage(this)!.load(as: ID?.self))
    ic_invocation_invoke(invocation)
}
let proxyClass = ic_class_allocate("Proxy", nil, 8)!
check(ic_class_add_method(proxyClass, sel("methodSignatureForSelector:"), imp(signature), "^v@::"))
check(ic_class_add_method(proxyClass, sel("forwardInvocation:"), imp(forward), "v@:^v"))
check(ic_class_register(proxyClass))
let proxy = ic_class_create_instance(proxyClass)!
ic_object_storage(proxy)!.storeBytes(of: counter, as: ID?.self)
let viaProxy = unsafeBitCast(ic_msg_lookup(proxy, sel("add:")), to: AddIMP.self)
print("[Proxy add:99] -> \(viaProxy(proxy, sel("add:"), 99))")

// 3. dealloc as a message, associated objects and a zeroing weak reference.
typealias DeallocIMP = @convention(c) (ID?, SEL?) -> Void
let dealloc: DeallocIMP = { this, cmd in
    print("  -[\(String(cString: ic_object_class_name(this))) dealloc]")
    var sup = ic_super(receiver: this, super_class: ic_class_root())
    unsafeBitCast(ic_msg_lookup_super(&sup, cmd), to: DeallocIMP.self)(this, cmd)
}
let noisyClass = ic_class_allocate("Noisy", nil, 0)!
check(ic_class_add_method(noisyClass, sel("dealloc"), imp(dealloc), "v@:"))
check(ic_class_register(noisyClass))
let noisy = ic_class_create_instance(noisyClass)!
let attached = ic_class_create_instance(noisyClass)!
let attachedKey = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)  // compared by address
check(ic_object_set_associated(noisy, attachedKey, attached, IC_ASSOCIATION_RETAIN))
ic_release(attached)
let weak = UnsafeMutablePointer<ID?>.allocate(capacity: 1)
weak.initialize(to: nil)
check(ic_weak_store(weak, noisy))
print("weak reference before release: \(weak.pointee == nil ? "nil" : "set")")
print("releasing the last reference:")
ic_release(noisy)
print("weak reference after release: \(weak.pointee == nil ? "nil" : "set")")
ic_weak_destroy(weak)
weak.deallocate()

ic_release(proxy)
ic_release(counter)
print("live objects: \(ic_object_live_count())")
