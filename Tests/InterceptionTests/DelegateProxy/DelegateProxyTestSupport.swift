// A parent class with a delegate protocol for the delegate-proxy suites: a downloader that
// reports to its delegate, and proxy types for it and for a subclass.
import CInterception
@testable import Interception

/// A 32-byte struct passed and returned by value (the forward path's struct handling).
struct DownloadRect: RuntimeStruct, Equatable {
    var x: Double
    var y: Double
    var width: Double
    var height: Double
    static let runtimeEncoding = "{DownloadRect=dddd}"
}

/// The delegate protocol: one required method, optional ones of every shape the proxy handles.
let downloaderDelegateProtocol: RuntimeProtocol = {
    do {
        return try RuntimeProtocol.define(uniqueName("DownloaderDelegate")) { p in
            try p.required("downloaderDidStart:", RuntimeObject?.self)
            try p.optional("downloader:progress:", (RuntimeObject?, Double).self)
            try p.optional("downloader:shouldRetry:", (RuntimeObject?, Int32).self, returns: Bool.self)
            try p.optional("downloader:didFinish:", (RuntimeObject?, Bool).self)
            try p.optional("frameFor:", DownloadRect.self, returns: DownloadRect.self)
        }
    } catch {
        fatalError("\(error)")
    }
}()

/// A parent class: `delegate` / `setDelegate:` over a zeroing weak slot in its storage, and
/// `download:` which calls the delegate (optional methods only if it responds to them).
func defineDownloader(_ base: String, superclass: RuntimeClass = .root) throws -> RuntimeClass {
    let name = uniqueName(base)
    @Sendable func slot(_ this: RuntimeObject) -> UnsafeMutablePointer<OpaquePointer?> {
        ic_object_storage_for_class(this.pointer, ic_class_lookup(name))!.assumingMemoryBound(
            to: OpaquePointer?.self)
    }
    return try RuntimeClass.define(name, superclass: superclass, storageSize: 8) { c in
        try c.method("delegate") { (this: RuntimeObject) -> RuntimeObject? in
            ic_weak_load_retained(slot(this)).map { RuntimeObject(adopting: $0) }
        }
        try c.method("setDelegate:") { (this: RuntimeObject, delegate: RuntimeObject?) in
            ic_weak_store(slot(this), delegate?.pointer)
        }
        // Runs one download of `chunks` chunks; answers whether the delegate asked for a retry.
        try c.method("download:") { (this: RuntimeObject, chunks: Int32) -> Bool in
            guard let delegate = ic_weak_load_retained(slot(this)).map({ RuntimeObject(adopting: $0) }) else {
                return false
            }
            try? delegate.send("downloaderDidStart:", this)
            if delegate.responds(to: "downloader:progress:") {
                for i in 0..<chunks {
                    try? delegate.send("downloader:progress:", this, Double(i + 1) / Double(chunks))
                }
            }
            var retry = false
            if delegate.responds(to: "downloader:shouldRetry:") {
                retry = (try? delegate.send("downloader:shouldRetry:", this, chunks)) ?? false
            }
            if delegate.responds(to: "downloader:didFinish:") {
                try? delegate.send("downloader:didFinish:", this, !retry)
            }
            return retry
        }
        try c.dealloc { this in ic_weak_destroy(slot(this)) }
    }
}

let downloaderClass: RuntimeClass = {
    do { return try defineDownloader("Downloader") } catch { fatalError("\(error)") }
}()

/// A subclass of the downloader, with a proxy type of its own.
let fastDownloaderClass: RuntimeClass = {
    do { return try defineDownloader("FastDownloader", superclass: downloaderClass) } catch {
        fatalError("\(error)")
    }
}()

/// A subclass of the downloader without a proxy type of its own.
let slowDownloaderClass: RuntimeClass = {
    do { return try defineDownloader("SlowDownloader", superclass: downloaderClass) } catch {
        fatalError("\(error)")
    }
}()

class DownloaderDelegateProxy: DelegateProxy<RuntimeObject, RuntimeObject>, DelegateProxyType, HasDelegate,
    @unchecked Sendable
{
    init(downloader: RuntimeObject) {
        super.init(
            parentObject: downloader, delegateProxy: DownloaderDelegateProxy.self,
            delegateProtocol: downloaderDelegateProtocol)
    }

    init<Proxy: DelegateProxyType>(downloader: RuntimeObject, proxyType: Proxy.Type) {
        super.init(
            parentObject: downloader, delegateProxy: proxyType, delegateProtocol: downloaderDelegateProtocol)
    }

    static func registerKnownImplementations() throws {
        try register(downloaderClass) { DownloaderDelegateProxy(downloader: $0) }
        try register(fastDownloaderClass) { FastDownloaderDelegateProxy(downloader: $0) }
    }
}

/// The proxy of fast downloaders: a subclass of the downloader's proxy (RxCocoa's proxy
/// hierarchy), with its own runtime class.
final class FastDownloaderDelegateProxy: DownloaderDelegateProxy, @unchecked Sendable {
    override init(downloader: RuntimeObject) {
        super.init(downloader: downloader, proxyType: FastDownloaderDelegateProxy.self)
    }
}

/// A delegate class implementing the protocol's methods named in `implementing`, logging each
/// call; `downloader:shouldRetry:` answers `chunks > 2`, `frameFor:` doubles the width.
func defineDelegate(implementing: Set<String>, log: EventLog) throws -> RuntimeClass {
    try RuntimeClass.define(uniqueName("DownloadDelegate"), conformsTo: [downloaderDelegateProtocol]) { c in
        try c.method("downloaderDidStart:") { (this: RuntimeObject, d: RuntimeObject?) in
            log.append("delegate start")
        }
        if implementing.contains("downloader:progress:") {
            try c.method("downloader:progress:") { (this: RuntimeObject, d: RuntimeObject?, p: Double) in
                log.append("delegate progress \(p)")
            }
        }
        if implementing.contains("downloader:shouldRetry:") {
            try c.method("downloader:shouldRetry:") {
                (this: RuntimeObject, d: RuntimeObject?, n: Int32) -> Bool in
                log.append("delegate shouldRetry \(n)")
                return n > 2
            }
        }
        if implementing.contains("downloader:didFinish:") {
            try c.method("downloader:didFinish:") { (this: RuntimeObject, d: RuntimeObject?, ok: Bool) in
                log.append("delegate finish \(ok)")
            }
        }
        if implementing.contains("frameFor:") {
            try c.method("frameFor:") { (this: RuntimeObject, r: DownloadRect) -> DownloadRect in
                DownloadRect(x: r.x, y: r.y, width: r.width * 2, height: r.height)
            }
        }
        if implementing.contains("extra") {
            try c.method("extra") { (this: RuntimeObject) -> Int32 in 7 }
        }
    }
}

let allDelegateMethods: Set<String> = [
    "downloader:progress:", "downloader:shouldRetry:", "downloader:didFinish:", "frameFor:", "extra",
]
