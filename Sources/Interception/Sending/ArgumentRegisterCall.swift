// ArgumentRegisterCall: calling an IMP with a whole image of the ABI's argument registers, the
// one way both the fast send (`RegisterFile`) and the delegate proxy's register stubs call a
// method without libffi.
import CInterception

#if (arch(x86_64) || arch(arm64)) && !os(Windows)
    // Every argument register of the ABI, in order: the integer ones (the receiver and the
    // selector first), then the eight vector ones. A method whose values all travel in registers
    // can be called through a C function taking exactly these: System V x86-64 and AAPCS64
    // assign integer-class and floating-point arguments to the two sequences independently, in
    // order; registers the callee does not declare are ignored by it, and nothing goes on the
    // stack, so its frame is what it expects.
    #if arch(x86_64)
        /// rdi, rsi, rdx, rcx, r8, r9.
        @usableFromInline
        typealias IntegerArgumentRegisters = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
        // An IMP called with every argument register, its result read from rax or xmm0. (A
        // C function type cannot be generic over its result, hence two.)
        @usableFromInline
        typealias IntegerResultIMP =
            @convention(c) (
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                Double, Double, Double, Double, Double, Double, Double, Double
            ) -> UInt64
        @usableFromInline
        typealias VectorResultIMP =
            @convention(c) (
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                Double, Double, Double, Double, Double, Double, Double, Double
            ) -> Double
    #else
        /// x0 … x7.
        @usableFromInline
        typealias IntegerArgumentRegisters = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
        // An IMP called with every argument register, its result read from x0 or v0. (A
        // C function type cannot be generic over its result, hence two.)
        @usableFromInline
        typealias IntegerResultIMP =
            @convention(c) (
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                Double, Double, Double, Double, Double, Double, Double, Double
            ) -> UInt64
        @usableFromInline
        typealias VectorResultIMP =
            @convention(c) (
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                Double, Double, Double, Double, Double, Double, Double, Double
            ) -> Double
    #endif

    /// xmm0 … xmm7 / v0 … v7, the bits of each register's low 64 bits (a `float` in the low 32).
    @usableFromInline
    typealias VectorArgumentRegisters = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    /// Calls `imp` with these argument registers; returns the bits of its result register
    /// (`xmm0`/`v0` if `vectorResult`, else `rax`/`x0`: a narrower result is in the low bits).
    @inlinable @inline(__always)
    func callWithArgumentRegisters(
        _ imp: ic_imp, _ i: IntegerArgumentRegisters, _ v: VectorArgumentRegisters, vectorResult: Bool
    ) -> UInt64 {
        func d(_ bits: UInt64) -> Double { Double(bitPattern: bits) }
        #if arch(x86_64)
            if vectorResult {
                return unsafeBitCast(imp, to: VectorResultIMP.self)(
                    i.0, i.1, i.2, i.3, i.4, i.5,
                    d(v.0), d(v.1), d(v.2), d(v.3), d(v.4), d(v.5), d(v.6), d(v.7)
                ).bitPattern
            }
            return unsafeBitCast(imp, to: IntegerResultIMP.self)(
                i.0, i.1, i.2, i.3, i.4, i.5,
                d(v.0), d(v.1), d(v.2), d(v.3), d(v.4), d(v.5), d(v.6), d(v.7))
        #else
            if vectorResult {
                return unsafeBitCast(imp, to: VectorResultIMP.self)(
                    i.0, i.1, i.2, i.3, i.4, i.5, i.6, i.7,
                    d(v.0), d(v.1), d(v.2), d(v.3), d(v.4), d(v.5), d(v.6), d(v.7)
                ).bitPattern
            }
            return unsafeBitCast(imp, to: IntegerResultIMP.self)(
                i.0, i.1, i.2, i.3, i.4, i.5, i.6, i.7,
                d(v.0), d(v.1), d(v.2), d(v.3), d(v.4), d(v.5), d(v.6), d(v.7))
        #endif
    }
#endif
