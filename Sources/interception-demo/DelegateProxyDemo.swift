// The delegate-proxy section of the demo: a downloader class with a delegate protocol, used with
// a real delegate and `rx.delegate.methodInvoked(...)` at once.
import Interception

/// The delegate protocol: progress (optional) and completion (required).
let DownloaderDelegate = try! RuntimeProtocol.define("DownloaderDelegate") { p in
    try p.optional("downloader:progress:", (RuntimeObject?, Double).self)
    try p.required("downloader:didFinishWithBytes:", (RuntimeObject?, Int).self)
}

/// A downloader: a weak `delegate` property (synthesized `delegate` / `setDelegate:`), and
/// `download:`, which reports to the delegate (progress only if it answers it).
let Downloader = try! RuntimeClass.define("Downloader") { c in
    try c.property("delegate", RuntimeObject?.self, .weak)
    try c.method("download:") { (this: RuntimeObject, bytes: Int) in
        let delegate: RuntimeObject? = try? this.send("delegate")
        guard let delegate else { return }
        if delegate.responds(to: "downloader:progress:") {
            for step in 1...2 {
                try? delegate.send("downloader:progress:", this, Double(step) / 2)
            }
        }
        try? delegate.send("downloader:didFinishWithBytes:", this, bytes)
    }
}

/// The proxy type of downloaders: RxCocoa's pattern, with the runtime protocol and class.
final class DownloaderDelegateProxy: DelegateProxy<RuntimeObject, RuntimeObject>, DelegateProxyType,
    HasDelegate,
    @unchecked Sendable
{
    init(downloader: RuntimeObject) {
        super.init(
            parentObject: downloader, delegateProxy: DownloaderDelegateProxy.self,
            delegateProtocol: DownloaderDelegate)
    }

    static func registerKnownImplementations() throws {
        try register(Downloader) { DownloaderDelegateProxy(downloader: $0) }
    }
}

func delegateProxyDemo() throws {
    section("a delegate protocol, a real delegate and rx.delegate at once (DelegateProxy)")
    let Printer = try RuntimeClass.define("ProgressPrinter", conformsTo: [DownloaderDelegate]) { c in
        try c.method("downloader:didFinishWithBytes:") { (this: RuntimeObject, d: RuntimeObject?, n: Int) in
            print("   delegate        finished: \(n) bytes")
        }
    }
    print("   \(Printer.name) conforms to \(DownloaderDelegate): \(Printer.conforms(to: DownloaderDelegate))")
    try DownloaderDelegateProxy.registerKnownImplementations()  // so rx.delegate knows the type

    let downloader = Downloader.new()
    let printer = Printer.new()
    try downloader.send("setDelegate:", printer)
    let bag = DisposeBag()
    // The printer does not implement downloader:progress:; observing it makes the proxy answer it.
    try downloader.rx.delegate.methodInvoked("downloader:progress:", as: (RuntimeObject?, Double).self)
        .subscribe(onNext: { print("   rx.delegate     progress \(Int($0.1 * 100))%") })
        .disposed(by: bag)
    try downloader.rx.delegate.methodInvoked("downloader:didFinishWithBytes:")
        .subscribe(onNext: { print("   rx.delegate     finished \($0[1]) bytes") })
        .disposed(by: bag)
    let installed: RuntimeObject? = try downloader.send("delegate")
    print(
        "   the downloader's delegate is now \(installed!.runtimeClass.name), forwarding to \(printer.runtimeClass.name)"
    )
    try downloader.send("download:", 4096)
    // The printer itself has no delegate proxy type: asking is an error, not a crash.
    do {
        _ = try printer.rx.delegate
    } catch {
        print("   printer.rx.delegate: \(error)")
    }
}
