import CInterception
@testable import Interception
import Testing

@Suite("RuntimeProtocol: protocols from typed signatures, adoption and conformance")
struct RuntimeProtocolTests {
    @Test("a protocol defined from Swift types has the encodings of those types, and is found by name")
    func defineFromTypedSignatures() throws {
        let name = uniqueName("Downloading")
        let p = try RuntimeProtocol.define(name) { p in
            try p.required("download:", (RuntimeObject?, Int32).self)
            try p.required("count", Void.self, returns: Int.self)
            try p.optional("progress:", Double.self, returns: Void.self)
            try p.optional("frame", Void.self, returns: DownloadRect.self)
            try p.required("shared", Void.self, returns: RuntimeObject?.self, classMethod: true)
            try p.method("raw:", encoding: "v@:^v", required: false)
        }
        #expect(RuntimeProtocol.named(name) == p)
        #expect(p.name == name)
        #expect(
            p.methods(required: true).map(\.description) == [
                "-download: (v@:@i, required)", "-count (q@:, required)",
            ])
        #expect(
            p.methods(required: false).map(\.encoding) == ["v@:d", "{DownloadRect=dddd}@:", "v@:^v"])
        #expect(p.methods(required: true, instance: false).map(\.encoding) == ["@@:"])
        #expect(p.methodDescription(for: "progress:", required: false)?.encoding == "v@:d")
        #expect(p.methodDescription(for: "progress:", required: true) == nil)
    }

    @Test("a failed definition registers nothing and frees the name")
    func failedDefinitionRegistersNothing() throws {
        let name = uniqueName("Failing")
        #expect(throws: RuntimeError.self) {
            try RuntimeProtocol.define(name) { p in
                try p.required("a", Void.self)
                try p.required("a", Void.self)  // described twice
            }
        }
        #expect(RuntimeProtocol.named(name) == nil)
        _ = try RuntimeProtocol.define(name)
    }

    @Test("incorporation: conformance and method descriptions follow incorporated protocols")
    func incorporation() throws {
        let base = try RuntimeProtocol.define(uniqueName("Base")) { p in try p.required("base", Void.self) }
        let derived = try RuntimeProtocol.define(uniqueName("Derived"), incorporating: [base]) { p in
            try p.optional("derived", Void.self)
        }
        #expect(derived.incorporatedProtocols == [base])
        #expect(derived.conforms(to: base) && !base.conforms(to: derived))
        #expect(derived.methodDescription(for: "base", required: true) != nil)
        #expect(derived.allInstanceMethods.map(\.selector.name) == ["derived", "base"])
    }

    @Test("a class adopting a protocol without a required method is an error naming the method")
    func missingRequiredMethod() throws {
        let base = try RuntimeProtocol.define(uniqueName("NeedsBase")) { p in
            try p.required("needed:", Int32.self)
        }
        let derived = try RuntimeProtocol.define(uniqueName("NeedsDerived"), incorporating: [base])
        let name = uniqueName("Lacking")
        do {
            _ = try RuntimeClass.define(name, conformsTo: [derived]) { _ in }
            Issue.record("defined a class lacking a required method")
        } catch let error as RuntimeError {
            #expect(error.statusName == "IC_ERR_METHOD_NOT_FOUND")
            #expect(error.message.contains("-needed:") && error.message.contains(base.name))
        }
        #expect(RuntimeClass.named(name) == nil)
        // With a different encoding, the error says both.
        do {
            _ = try RuntimeClass.define(uniqueName("Mismatched"), conformsTo: [base]) { c in
                try c.method("needed:") { (this: RuntimeObject, x: Double) in }
            }
            Issue.record("defined a class with a mismatched method")
        } catch let error as RuntimeError {
            #expect(error.statusName == "IC_ERR_SIGNATURE_MISMATCH")
            #expect(error.message.contains("v@:d") && error.message.contains("v@:i"))
        }
    }

    @Test("conformance is inherited by subclasses and reaches incorporated protocols")
    func conformanceThroughInheritance() throws {
        let base = try RuntimeProtocol.define(uniqueName("InheritedBase"))
        let derived = try RuntimeProtocol.define(uniqueName("InheritedDerived"), incorporating: [base]) { p in
            try p.required("run", Void.self)
        }
        let other = try RuntimeProtocol.define(uniqueName("Other"))
        let parent = try RuntimeClass.define(uniqueName("Adopter"), conformsTo: [derived]) { c in
            try c.method("run") { (this: RuntimeObject) in }
        }
        let child = try RuntimeClass.define(
            uniqueName("AdopterChild"), superclass: parent, conformsTo: [base]
        ) { _ in }
        #expect(parent.protocols == [derived])
        #expect(child.protocols == [base])
        for cls in [parent, child] {
            #expect(cls.conforms(to: derived) == (cls == parent || true))
            #expect(cls.conforms(to: base))
            #expect(!cls.conforms(to: other))
            #expect(cls.new().conforms(to: base))
        }
        #expect(!RuntimeClass.root.new().conforms(to: base))
    }
}
