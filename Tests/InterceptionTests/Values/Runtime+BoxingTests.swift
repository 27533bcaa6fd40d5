import Interception
import Testing

@Suite("Boxing values by encoding")
struct RuntimeBoxingTests {
    private func boxed<T>(_ value: T, _ encoding: String) -> Any {
        withUnsafeBytes(of: value) { Runtime.boxedValue(encoding: encoding, at: $0.baseAddress!) }
    }

    @Test("integers, floats and booleans box as the matching Swift types")
    func scalars() {
        #expect(boxed(Int8(-3), "c") as? Int8 == -3)
        #expect(boxed(UInt8(200), "C") as? UInt8 == 200)
        #expect(boxed(Int16(-300), "s") as? Int16 == -300)
        #expect(boxed(UInt16(60_000), "S") as? UInt16 == 60_000)
        #expect(boxed(Int32(-70_000), "i") as? Int32 == -70_000)
        #expect(boxed(Int32(-5), "l") as? Int32 == -5)
        #expect(boxed(UInt32.max, "I") as? UInt32 == .max)
        #expect(boxed(UInt32(7), "L") as? UInt32 == 7)
        #expect(boxed(Int64.min, "q") as? Int == Int.min)
        #expect(boxed(UInt64.max, "Q") as? UInt == UInt.max)
        #expect(boxed(Float(1.5), "f") as? Float == 1.5)
        #expect(boxed(-2.25, "d") as? Double == -2.25)
        #expect(boxed(Float80(0.5), "D") as? Float80 == 0.5)
        #expect(boxed(UInt8(1), "B") as? Bool == true)
        #expect(boxed(UInt8(2), "B") as? Bool == true)
        #expect(boxed(UInt8(0), "B") as? Bool == false)
        #expect(boxed(Int32(9), "ri") as? Int32 == 9)  // qualifiers ignored
        #expect(boxed(UInt8(0), "v") is Void)
    }

    @Test("objects, classes, selectors, strings and pointers box as their Swift types; NULL as nil")
    func pointers() throws {
        let object = RuntimeClass.root.new()
        let boxedObject = boxed(object.pointer, "@") as? RuntimeObject
        #expect(boxedObject == object)
        #expect(object.retainCount == 2)  // the box holds a handle
        #expect((boxed(UInt(0), "@") as? RuntimeObject?)! == nil)
        #expect(boxed(RuntimeClass.root.pointer, "#") as? RuntimeClass == .root)
        #expect(boxed(Selector("x:").pointer, ":") as? Selector == "x:")
        "hello".withCString { cString in
            let pointer = boxed(cString, "*") as? UnsafePointer<CChar>
            #expect(pointer == cString)
            #expect(pointer.map { String(cString: $0) } == "hello")
        }
        #expect((boxed(UInt(0), "*") as? UnsafePointer<CChar>?)! == nil)
        let address = UnsafeRawPointer(bitPattern: 0x1000)!
        #expect(boxed(address, "^i") as? UnsafeRawPointer == address)
        #expect(boxed(address, "^?") as? UnsafeRawPointer == address)
        #expect(boxed(address, "@?") as? UnsafeRawPointer == address)
    }

    @Test(
        "a char * argument boxes as its pointer and is never read: a buffer without a terminating zero is not over-read"
    )
    func cStringArgumentsAreNotRead() throws {
        // Four bytes, no zero: following the pointer as a C string would read past the buffer
        // (AddressSanitizer reports it). Boxing must hand back the pointer untouched.
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: 4)
        defer { buffer.deallocate() }
        buffer.initialize(repeating: 0x41, count: 4)
        let pointer = boxed(UnsafePointer(buffer), "*") as? UnsafePointer<CChar>
        #expect(pointer == UnsafePointer(buffer))
        #expect(boxed(UnsafePointer(buffer), "r*") as? UnsafePointer<CChar> == UnsafePointer(buffer))
    }

    @Test("structs and arrays box as RuntimeStructValue with their encoding and bytes")
    func structs() throws {
        let point = Point(x: 1, y: 2)
        let value = try #require(boxed(point, "{Point=dd}") as? RuntimeStructValue)
        #expect(value.encoding == "{Point=dd}")
        #expect(value.bytes.count == 16)
        #expect(try value.load(as: Point.self) == point)
        let array = try #require(boxed((Int32(1), Int32(2), Int32(3)), "[3i]") as? RuntimeStructValue)
        #expect(array.bytes == [1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0])
    }
}
