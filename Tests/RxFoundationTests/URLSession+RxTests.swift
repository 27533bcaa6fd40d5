import Foundation
import RxCore
import RxFoundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("URLSession.rx", .serialized)
struct URLSessionRxTests {
    private static let routes: [String: (status: Int, body: String)] = [
        "/json": (200, #"{"answer":42}"#), "/text": (200, "hello"), "/missing": (404, "nope"),
    ]

    @Test("Data and response of a request to a loopback server")
    func dataAndResponse() throws {
        let server = try LoopbackHTTPServer(routes: Self.routes)
        defer { server.stop() }
        let url = URL(string: "http://127.0.0.1:\(server.port)/text")!
        let data = try URLSession.shared.rx.data(request: URLRequest(url: url)).toBlocking(timeout: 20)
            .single()
        #expect(String(decoding: data, as: UTF8.self) == "hello")
        let response = try URLSession.shared.rx.response(request: URLRequest(url: url)).toBlocking(
            timeout: 20
        ).single()
        #expect(response.response.statusCode == 200)
    }

    @Test("JSON of a response, and the error of a failing status")
    func jsonAndFailure() throws {
        let server = try LoopbackHTTPServer(routes: Self.routes)
        defer { server.stop() }
        let json = try URLSession.shared.rx.json(url: URL(string: "http://127.0.0.1:\(server.port)/json")!)
            .toBlocking(timeout: 20).single()
        #expect((json as? [String: Any])?["answer"] as? Int == 42)
        let missing = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)/missing")!)
        guard
            case .failed(_, let error) = URLSession.shared.rx.data(request: missing).toBlocking(timeout: 20)
                .materialize()
        else {
            Issue.record("expected a failure")
            return
        }
        guard case .httpRequestFailed(let response, let body)? = error as? RxCocoaURLError else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(response.statusCode == 404)
        #expect(body.map { String(decoding: $0, as: UTF8.self) } == "nope")
    }
}

@Suite("NotificationCenter.rx")
struct NotificationCenterRxTests {
    @Test("Notification emits the posted notifications until disposed")
    func notifications() {
        let center = NotificationCenter()
        let name = Notification.Name("RxFoundationTests.ping")
        var received: [String] = []
        let notifications: Observable<Notification> = center.rx.notification(name)
        let subscription = notifications.subscribe(onNext: { (notification: Notification) in
            let value = notification.userInfo?["value"] as? String
            received.append(value ?? "?")
        })
        center.post(name: name, object: nil, userInfo: ["value": "a"])
        center.post(name: Notification.Name("other"), object: nil, userInfo: ["value": "x"])
        center.post(name: name, object: nil, userInfo: ["value": "b"])
        subscription.dispose()
        center.post(name: name, object: nil, userInfo: ["value": "c"])
        #expect(received == ["a", "b"])
    }
}
