// The type matrix of the test-support target (ict_types.h), seen from Swift.
import CInterception
import CInterceptionTestSupport
import Testing

/// One type of the matrix with typed C helpers.
struct TypeCase: CustomTestStringConvertible, Sendable {
    let index: Int
    var raw: ict_type_case { TypeCase.table[index] }
    var name: String { String(cString: raw.name) }
    var encoding: String { String(cString: raw.encoding) }
    var size: Int { raw.size }
    var testDescription: String { "\(name) \(encoding)" }

    nonisolated(unsafe) static let table: UnsafePointer<ict_type_case> = {
        var count = 0
        return ict_type_cases(&count)
    }()

    static let all: [TypeCase] = {
        var count = 0
        _ = ict_type_cases(&count)
        return (0..<count).map { TypeCase(index: $0) }
    }()

    /// Field-wise equality of two values of this type.
    func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer) -> Bool { raw.equal(a, b) }

    func isSample(_ p: UnsafeRawPointer) -> Bool { equal(p, raw.sample) }
    func isOther(_ p: UnsafeRawPointer) -> Bool { equal(p, raw.other) }

    /// A zeroed, 16-aligned buffer large enough for a value of any case.
    func withBuffer<R>(_ body: (UnsafeMutableRawPointer) throws -> R) rethrows -> R {
        let p = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
        p.initializeMemory(as: UInt8.self, repeating: 0, count: 64)
        defer { p.deallocate() }
        return try body(p)
    }

    /// A registered class implementing echo:, make and take: with this case's IMPs.
    func makeTargetClass() throws -> CLS {
        try makeClass(
            "Target_\(name)",
            methods: [
                ("echo:", raw.echo_imp, "\(encoding)@:\(encoding)"),
                ("make", raw.make_imp, "\(encoding)@:"),
                ("take:", raw.take_imp, "v@:\(encoding)"),
            ])
    }
}
