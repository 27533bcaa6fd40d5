import Interception
import Testing

@Suite("Struct values")
struct RuntimeStructTests {
    @Test("a struct value round-trips through RuntimeStructValue, padding included")
    func roundTrip() throws {
        let padded = Padded(d: 1.25, i: -4)
        let value = RuntimeStructValue(padded)
        #expect(value.encoding == "{Padded=di}")
        #expect(value.bytes.count == 16)
        #expect(try value.load(as: Padded.self) == padded)
        #expect("\(value)" == "{Padded=di} [16 bytes]")
    }

    @Test("loading as a type of another encoding or size throws")
    func mismatchedLoad() throws {
        let value = RuntimeStructValue(Point(x: 1, y: 2))
        let error = try #require(throws: RuntimeError.self) { _ = try value.load(as: Padded.self) }
        #expect(error.statusName == "IC_ERR_SIGNATURE_MISMATCH")
        let named = RuntimeStructValue(encoding: "{Point=\"x\"d\"y\"d}", bytes: value.bytes)
        #expect(try named.load(as: Point.self) == Point(x: 1, y: 2))  // field names do not matter
        let short = RuntimeStructValue(encoding: "{Point=dd}", bytes: [0, 1, 2])
        #expect(throws: RuntimeError.self) { _ = try short.load(as: Point.self) }
    }
}
