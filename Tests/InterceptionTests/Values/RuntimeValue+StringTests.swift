import CInterception
import CInterceptionTestSupport
import Testing

@testable import Interception

// Area: `String` as a runtime value (`*`). Purpose: a Swift string passed to a method
// implemented in C arrives as a C string that lives for the send and is freed when it returns
// (on the register fast path, the checked path and the parameter-pack path with an invocation);
// empty and NULL strings; C strings returned to Swift; Swift method closures taking and
// returning strings, called from C.

private typealias LengthIMP = @convention(c) (OpaquePointer?, OpaquePointer?, UnsafePointer<CChar>?) -> Int64
private typealias StringIMP = @convention(c) (OpaquePointer?, OpaquePointer?) -> UnsafePointer<CChar>?
private typealias ShoutIMP =
    @convention(c) (OpaquePointer?, OpaquePointer?, UnsafePointer<CChar>?) -> UnsafePointer<CChar>?

/// `-sum:b:c:d:e:s:` (`q@:qqqqq*`): more integer arguments than registers, so sends take an
/// invocation; adds the five numbers and the string's length.
private let sumIMP:
    @convention(c) (OpaquePointer?, OpaquePointer?, Int, Int, Int, Int, Int, UnsafePointer<CChar>?) -> Int = {
        this, _, a, b, c, d, e, s in
        a + b + c + d + e + Int(ict_cstring_length_imp(this, nil, s))
    }

/// A class whose methods are implemented in C (ict_classes.h) and one Swift closure method.
private func makeStringClass() throws -> RuntimeClass {
    try RuntimeClass.define(uniqueName("CStrings")) { c in
        try c.method("lengthOf:", encoding: "q@:*", imp: ict_cstring_length_imp as LengthIMP)
        try c.method("greeting", encoding: "*@:", imp: ict_cstring_greeting_imp as StringIMP)
        try c.method("nothing", encoding: "*@:", imp: ict_cstring_null_imp as StringIMP)
        try c.method("sum:b:c:d:e:s:", encoding: "q@:qqqqq*", imp: sumIMP)
        try c.method("shout:") { (this: RuntimeObject, s: String) -> String in s.uppercased() + "!" }
    }
}

/// What a C method read last on this thread.
private var lastRead: String { String(cString: ict_cstring_last_read()) }

@Suite("String as a C string argument and result")
struct RuntimeValueStringTests {
    @Test("a String argument reaches a C method as a C string that is freed when the send returns")
    func stringArgumentLivesForTheSend() throws {
        let object = try makeStringClass().new()
        let before = ReturnedObjects.count
        // The first send checks and caches, the next ones take the register fast path.
        for text in ["héllo", "wörld", "a longer string than any small-string optimization keeps inline"] {
            let length: Int = try object.send("lengthOf:", text)
            #expect(length == text.utf8.count)
            #expect(lastRead == text)
            #expect(ReturnedObjects.count == before)
        }
        var signature = SwiftSignature(Int.self)
        signature.append(String.self)
        let checked: Int = try object.sendChecked("lengthOf:", signature, "checked")
        #expect(checked == 7)
        #expect(lastRead == "checked")
        #expect(ReturnedObjects.count == before)
    }

    @Test("a String argument through the parameter-pack send and an invocation lives for the send")
    func stringArgumentThroughAnInvocation() throws {
        let object = try makeStringClass().new()
        let before = ReturnedObjects.count
        for _ in 0..<2 {
            let sum: Int = try object.send("sum:b:c:d:e:s:", 1, 2, 3, 4, 5, "six")
            #expect(sum == 18)
            #expect(lastRead == "six")
            #expect(ReturnedObjects.count == before)
        }
    }

    @Test("an empty String is an empty C string; NULL is passed as UnsafePointer<CChar>? nil")
    func emptyAndNullStrings() throws {
        let object = try makeStringClass().new()
        let empty: Int = try object.send("lengthOf:", "")
        #expect(empty == 0)
        #expect(lastRead == "")
        let null: Int = try object.send("lengthOf:", UnsafePointer<CChar>?.none)
        #expect(null == -1)
        #expect(lastRead == "(null)")
    }

    @Test("a C string result reads as a String; NULL reads as the empty string")
    func cStringResults() throws {
        let object = try makeStringClass().new()
        for _ in 0..<2 {
            let greeting: String = try object.send("greeting")
            #expect(greeting == "hello from C")
            let nothing: String = try object.send("nothing")
            #expect(nothing == "")
        }
    }

    @Test("a Swift method taking and returning String, called from Swift and from C")
    func swiftMethodWithStrings() throws {
        let object = try makeStringClass().new()
        for _ in 0..<2 {
            let shouted: String = try object.send("shout:", "hey")
            #expect(shouted == "HEY!")
        }
        let imp = unsafeBitCast(ic_msg_lookup(object.pointer, Selector("shout:").pointer), to: ShoutIMP.self)
        let before = ReturnedObjects.count
        Runtime.autoreleasepool {
            let result = imp(object.pointer, Selector("shout:").pointer, "from c")
            // The returned C string is parked until the pool drains.
            #expect(result.map { String(cString: $0) } == "FROM C!")
            #expect(ReturnedObjects.count == before + 1)
        }
        #expect(ReturnedObjects.count == before)
    }

    @Test("a String send to a method that takes another type is refused with a mismatch")
    func stringToNonStringMethodIsRefused() throws {
        let object = try makeStringClass().new()
        let error = try #require(throws: RuntimeError.self) { let _: Int = try object.send("shout:", 5) }
        #expect(error.statusName == "IC_ERR_SIGNATURE_MISMATCH")
    }
}
