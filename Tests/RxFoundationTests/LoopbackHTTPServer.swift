import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A minimal HTTP/1.0 server on 127.0.0.1 for the URLSession tests: answers at most
/// `maxConnections` requests from `routes` (path → status and body), each connection closed after
/// its response, and stops by itself when that many were served, when no client connects for
/// `idleSeconds`, or on `stop()`. Listens on the loopback interface only, on a port the kernel
/// picks.
final class LoopbackHTTPServer: @unchecked Sendable {
    let port: UInt16
    private let socketDescriptor: Int32
    private let routes: [String: (status: Int, body: String)]
    private let maxConnections: Int
    private let idleSeconds: Int32
    private let finished = DispatchSemaphore(value: 0)

    init(routes: [String: (status: Int, body: String)], maxConnections: Int = 8, idleSeconds: Int32 = 10)
        throws
    {
        self.routes = routes
        self.maxConnections = maxConnections
        self.idleSeconds = idleSeconds
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(fd, pointer, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        socketDescriptor = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// Stops accepting and waits until the serving thread has ended.
    func stop() {
        shutdown(socketDescriptor, Int32(SHUT_RDWR))
        finished.wait()
    }

    private func serve() {
        defer {
            close(socketDescriptor)
            finished.signal()
        }
        for _ in 0..<maxConnections {
            var poller = pollfd(fd: socketDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, idleSeconds * 1000) > 0, poller.revents & Int16(POLLIN) != 0 else {
                return
            }
            let client = accept(socketDescriptor, nil, nil)
            guard client >= 0 else { return }
            respond(to: client)
            close(client)
        }
    }

    private func respond(to client: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var request = ""
        while !request.contains("\r\n\r\n") {
            var poller = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, idleSeconds * 1000) > 0 else { return }
            let count = read(client, &buffer, buffer.count)
            guard count > 0 else { return }
            request += String(decoding: buffer[0..<count], as: UTF8.self)
        }
        let path = request.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        let route = routes[path] ?? (404, "not found")
        let body = Array(route.body.utf8)
        let head = "HTTP/1.0 \(route.status) X\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + body
        _ = bytes.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
    }
}
