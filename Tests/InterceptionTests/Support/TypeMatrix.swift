// The C test-support type matrix (ict_types.h) seen from the Swift API: for each C case, the
// Swift type that stands for it, and checks that run a value of that type through sends and
// method closures in both directions (Swift → C IMP, C IC_MSG → Swift closure).
import CInterception
import CInterceptionTestSupport
import Interception
import Testing

// Swift mirrors of the matrix's structs, field for field.
struct FF: RuntimeStruct {
    var a, b: Float
    static let runtimeEncoding = "{ff=ff}"
}
struct DD: RuntimeStruct {
    var a, b: Double
    static let runtimeEncoding = "{dd=dd}"
}
struct FI: RuntimeStruct {
    var a: Float
    var b: Int32
    static let runtimeEncoding = "{fi=fi}"
}
struct ID: RuntimeStruct {
    var a: Int32
    var b: Double
    static let runtimeEncoding = "{id=id}"
}
struct DQ: RuntimeStruct {
    var a: Double
    var b: Int64
    static let runtimeEncoding = "{dq=dq}"
}
struct DDD: RuntimeStruct {
    var a, b, c: Double
    static let runtimeEncoding = "{ddd=ddd}"
}
struct CFC: RuntimeStruct {
    var a: Int8
    var b: Float
    var c: Int8
    static let runtimeEncoding = "{cfc=cfc}"
}
struct B17: RuntimeStruct {
    var bytes:
        (
            UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
            UInt8, UInt8, UInt8
        )
    static let runtimeEncoding = "{b17=[17C]}"
}
struct Q4: RuntimeStruct {
    var a, b, c, d: Int64
    static let runtimeEncoding = "{q4=qqqq}"
}
struct Outer: RuntimeStruct {
    struct Inner {
        var f: Float
        var d: Double
    }
    var s: Int16
    var inner: Inner
    var c: (Int8, Int8, Int8)
    static let runtimeEncoding = "{outer=s{inner=fd}[3c]}"
}
struct PI: RuntimeStruct {
    var p: UnsafeRawPointer?
    var i: Int32
    static let runtimeEncoding = "{pi=^vi}"
}
// The AAPCS64 (AArch64) shapes: homogeneous floating-point aggregates and their limits.
struct F1: RuntimeStruct {
    var a: Float
    static let runtimeEncoding = "{f1=f}"
}
struct FFF: RuntimeStruct {
    var a, b, c: Float
    static let runtimeEncoding = "{fff=fff}"
}
struct FFFF: RuntimeStruct {
    var a, b, c, d: Float
    static let runtimeEncoding = "{ffff=ffff}"
}
struct DDDD: RuntimeStruct {
    var a, b, c, d: Double
    static let runtimeEncoding = "{dddd=dddd}"
}
struct FA4: RuntimeStruct {
    var a: (Float, Float, Float, Float)
    static let runtimeEncoding = "{fa4=[4f]}"
}
#if arch(x86_64)
    /// Two C `long double`s: Float80 exists on x86 only.
    struct LDLD: RuntimeStruct {
        var a, b: Float80
        static let runtimeEncoding = "{DD=DD}"
    }
#endif
struct D5: RuntimeStruct {
    var a, b, c, d, e: Double
    static let runtimeEncoding = "{d5=ddddd}"
}
struct FD: RuntimeStruct {
    var a: Float
    var b: Double
    static let runtimeEncoding = "{fd=fd}"
}
struct III: RuntimeStruct {
    var a, b, c: Int32
    static let runtimeEncoding = "{iii=iii}"
}
struct C3: RuntimeStruct {
    var a, b, c: Int8
    static let runtimeEncoding = "{c3=ccc}"
}

/// One case of the C matrix with its Swift type.
struct MatrixCase: CustomTestStringConvertible, Sendable {
    let index: Int
    var raw: ict_type_case { MatrixCase.table[index] }
    var name: String { String(cString: raw.name) }
    var encoding: String { String(cString: raw.encoding) }
    var testDescription: String { "\(name) \(encoding)" }

    nonisolated(unsafe) static let table: UnsafePointer<ict_type_case> = {
        var count = 0
        return ict_type_cases(&count)
    }()

    static let count: Int = {
        var count = 0
        _ = ict_type_cases(&count)
        return count
    }()

    /// Every case but `object` and `class`, whose C samples are made-up addresses (wrapping one
    /// in a RuntimeObject? would retain it); objects and classes have their own tests.
    static let valueCases: [MatrixCase] = (0..<count).map(MatrixCase.init(index:))
        .filter { !["object", "class"].contains($0.name) }

    /// The Swift type of this case, as a check runner. `nil` would mean a C case nobody mapped:
    /// the tests require one for every case.
    var swiftType: (any MatrixValue.Type)? {
        switch name {
        case "char": Int8.self
        case "uchar": UInt8.self
        case "short": Int16.self
        case "ushort": UInt16.self
        case "int": Int32.self
        case "uint": UInt32.self
        case "long32": Int32.self
        case "ulong32": UInt32.self
        case "longlong": Int.self
        case "ulonglong": UInt64.self
        case "float": Float.self
        case "double": Double.self
        case "longdouble": Float80.self
        case "boolean": Bool.self
        case "cstring": UnsafePointer<CChar>?.self
        case "selector": Selector.self
        case "struct_ff": FF.self
        case "struct_dd": DD.self
        case "struct_fi": FI.self
        case "struct_id": ID.self
        case "struct_dq": DQ.self
        case "struct_ddd": DDD.self
        case "struct_cfc": CFC.self
        case "struct_17": B17.self
        case "struct_32": Q4.self
        case "struct_nested": Outer.self
        case "struct_pi": PI.self
        case "struct_f1": F1.self
        case "struct_fff": FFF.self
        case "struct_ffff": FFFF.self
        case "struct_dddd": DDDD.self
        case "struct_fa4": FA4.self
        case "struct_DD": longDoublePair
        case "struct_d5": D5.self
        case "struct_fd": FD.self
        case "struct_iii": III.self
        case "struct_c3": C3.self
        default: nil
        }
    }

    /// A 16-aligned scratch buffer big enough for any case, zeroed.
    func withBuffer<R>(_ body: (UnsafeMutableRawPointer) throws -> R) rethrows -> R {
        let p = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
        p.initializeMemory(as: UInt8.self, repeating: 0, count: 64)
        defer { p.deallocate() }
        return try body(p)
    }
}

/// A Swift type standing for a matrix case.
protocol MatrixValue: RuntimeValue {}

extension MatrixValue {
    /// The value stored at `address` (a C value of this case).
    static func load(_ address: UnsafeRawPointer) -> Self {
        Self(runtimeRepresentation: address.loadUnaligned(as: RuntimeRepresentation.self))
    }

    /// Whether this value equals the C value at `address`, field by field.
    func equals(_ address: UnsafeRawPointer, in matrixCase: MatrixCase) -> Bool {
        matrixCase.withBuffer { buffer in
            buffer.storeBytes(of: runtimeRepresentation, as: RuntimeRepresentation.self)
            return matrixCase.raw.equal(buffer, address)
        }
    }

    /// Sends `make`, `echo:` and `take:` to `object`, whose methods are the case's C IMPs.
    static func checkSwiftSends(_ matrixCase: MatrixCase, to object: RuntimeObject) throws {
        let raw = matrixCase.raw
        let made: Self = try object.send("make")
        #expect(made.equals(raw.sample, in: matrixCase), "make")
        let echoed: Self = try object.send("echo:", load(raw.other))
        #expect(echoed.equals(raw.other, in: matrixCase), "echo:")
        try object.send("take:", load(raw.sample))
        #expect(load(ict_taken()).equals(raw.sample, in: matrixCase), "take:")
    }

    /// A class whose `echo:`, `make` and `take:` are Swift closures of this type; `take:`
    /// stores its argument in `taken`.
    static func swiftClass(_ matrixCase: MatrixCase, taken: TakenBox) throws -> RuntimeClass {
        try RuntimeClass.define(uniqueName("SwiftMatrix_\(matrixCase.name)")) { c in
            try c.method("echo:") { (this: RuntimeObject, x: Self) -> Self in x }
            try c.method("make") { (this: RuntimeObject) -> Self in load(matrixCase.raw.sample) }
            try c.method("take:") { (this: RuntimeObject, x: Self) in taken.store(x) }
        }
    }
}

extension Int8: MatrixValue {}
extension UInt8: MatrixValue {}
extension Int16: MatrixValue {}
extension UInt16: MatrixValue {}
extension Int32: MatrixValue {}
extension UInt32: MatrixValue {}
extension Int: MatrixValue {}
extension UInt64: MatrixValue {}
extension Float: MatrixValue {}
extension Double: MatrixValue {}
extension Float80: MatrixValue {}
extension Bool: MatrixValue {}
extension Optional: MatrixValue where Wrapped == UnsafePointer<CChar> {}
extension Selector: MatrixValue {}
extension FF: MatrixValue {}
extension DD: MatrixValue {}
extension FI: MatrixValue {}
extension ID: MatrixValue {}
extension DQ: MatrixValue {}
extension DDD: MatrixValue {}
extension CFC: MatrixValue {}
extension B17: MatrixValue {}
extension Q4: MatrixValue {}
extension Outer: MatrixValue {}
extension PI: MatrixValue {}
extension F1: MatrixValue {}
extension FFF: MatrixValue {}
extension FFFF: MatrixValue {}
extension DDDD: MatrixValue {}
extension FA4: MatrixValue {}
#if arch(x86_64)
    extension LDLD: MatrixValue {}
#endif
extension D5: MatrixValue {}
extension FD: MatrixValue {}
extension III: MatrixValue {}
extension C3: MatrixValue {}

/// The Swift type of `{DD=DD}` where Swift has one (Float80: x86 only).
private var longDoublePair: (any MatrixValue.Type)? {
    #if arch(x86_64)
        LDLD.self
    #else
        nil
    #endif
}

/// The argument of the last `take:` of a Swift matrix class, as C bytes (one box per test).
final class TakenBox: @unchecked Sendable {
    // @unchecked Sendable: written by the closure and read by the test on the same thread,
    // one after the other (the send is synchronous).
    let bytes = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)

    func store<T: RuntimeValue>(_ value: T) {
        bytes.initializeMemory(as: UInt8.self, repeating: 0, count: 64)
        bytes.storeBytes(of: value.runtimeRepresentation, as: T.RuntimeRepresentation.self)
    }

    deinit { bytes.deallocate() }
}
