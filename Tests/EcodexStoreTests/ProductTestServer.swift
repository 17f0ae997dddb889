import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 for the online-lookup tests: serves canned
/// responses by path, one thread per connection, and stops by itself (on `stop()`,
/// or after `lifetime` seconds, or after `maxConnections` connections). No
/// keep-alive: every response closes its connection.
///
/// The same file serves the client tests (EcodexStoreTests) and the end-to-end tests
/// of the `scan` binary (ScanTests links it as OnlineTestServer.swift).
final class ProductTestServer: @unchecked Sendable {
    struct Response: Sendable {
        enum Mode: Sendable {
            case normal
            /// Declares a Content-Length of `bytes` and streams that many bytes.
            case huge(bytes: Int)
            /// Streams `bytes` without a Content-Length, until the client hangs up.
            case hugeUndeclared(bytes: Int)
            /// Sends the body one byte every `interval` seconds (a server that trickles).
            case trickle(interval: TimeInterval)
        }
        var status: Int
        var body: String = ""
        var headers: [String: String] = [:]
        /// Seconds to wait before answering.
        var delay: TimeInterval = 0
        var mode: Mode = .normal
        /// Raw bytes to send instead of `body` (a pack file).
        var data: Data?

        static func json(_ body: String, status: Int = 200) -> Response {
            Response(status: status, body: body, headers: ["Content-Type": "application/json"])
        }

        /// A redirect to `location`.
        static func redirect(_ location: String, status: Int = 302) -> Response {
            Response(status: status, headers: ["Location": location])
        }

        static func bytes(_ data: Data) -> Response {
            Response(status: 200, headers: ["Content-Type": "application/octet-stream"], data: data)
        }
    }

    /// One request as the server saw it.
    struct Request: Sendable {
        var method: String
        var path: String
        var query: String
        var headers: [String: String]
    }

    let port: UInt16
    private let socketFD: Int32
    private let lock = NSLock()
    /// Responses by path; a list is served in order and its last item repeats.
    private var routes: [String: [Response]] = [:]
    private var served: [String: Int] = [:]
    private var log: [Request] = []
    private var stopped = false
    private let maxConnections: Int
    private let lifetime: TimeInterval

    let host: String

    /// Listens on `host` (any 127.x.y.z address is this computer), on `port` or else a free one.
    init(routes: [String: [Response]] = [:], maxConnections: Int = 64, lifetime: TimeInterval = 120, host: String = "127.0.0.1",
         port: UInt16 = 0) throws {
        self.host = host
        self.routes = routes
        self.maxConnections = maxConnections
        self.lifetime = lifetime
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr(host)
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        socketFD = fd
        self.port = UInt16(bigEndian: addr.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit {
        stop()
    }

    var baseURL: String { "http://\(host):\(port)" }

    func set(_ path: String, _ responses: [Response]) {
        lock.lock()
        routes[path] = responses
        served[path] = 0
        lock.unlock()
    }

    /// How many requests reached `path`.
    func hits(_ path: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return served[path] ?? 0
    }

    var requests: [Request] {
        lock.lock()
        defer { lock.unlock() }
        return log
    }

    func stop() {
        lock.lock()
        let was = stopped
        stopped = true
        lock.unlock()
        if !was {
            shutdown(socketFD, Int32(SHUT_RDWR))
            close(socketFD)
        }
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    private func acceptLoop() {
        let end = Date().addingTimeInterval(lifetime)
        var connections = 0
        while !isStopped && Date() < end && connections < maxConnections {
            var pfd = pollfd(fd: socketFD, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, 100)
            guard ready > 0, !isStopped else { continue }
            let client = accept(socketFD, nil, nil)
            guard client >= 0 else { continue }
            connections += 1
            let thread = Thread { [self] in handle(client) }
            thread.start()
        }
        stop()
    }

    private func handle(_ fd: Int32) {
        defer { close(fd) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while received.count < 65_536 {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return }
            received.append(contentsOf: chunk[0..<n])
            if received.count >= 4, String(decoding: received, as: UTF8.self).contains("\r\n\r\n") { break }
        }
        let head = String(decoding: received, as: UTF8.self).components(separatedBy: "\r\n\r\n")[0]
        let lines = head.components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2 else { return }
        let target = String(parts[1])
        let path = String(target.split(separator: "?", maxSplits: 1).first ?? "")
        let query = target.contains("?") ? String(target.split(separator: "?", maxSplits: 1)[1]) : ""
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            let kv = line.split(separator: ":", maxSplits: 1)
            if kv.count == 2 { headers[kv[0].lowercased()] = kv[1].trimmingCharacters(in: .whitespaces) }
        }
        lock.lock()
        log.append(Request(method: String(parts[0]), path: path, query: query, headers: headers))
        let n = served[path] ?? 0
        served[path] = n + 1
        let list = routes[path] ?? []
        lock.unlock()
        let response = list.isEmpty ? Response.json(#"{"status":0,"status_verbose":"product not found"}"#, status: 404)
            : list[min(n, list.count - 1)]
        var waited = 0.0
        while waited < response.delay && !isStopped {
            usleep(20_000)
            waited += 0.02
        }
        if isStopped { return }
        var head2 = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\nConnection: close\r\n"
        for (k, v) in response.headers { head2 += "\(k): \(v)\r\n" }
        switch response.mode {
        case .normal:
            let body = response.data.map(Array.init) ?? Array(response.body.utf8)
            head2 += "Content-Length: \(body.count)\r\n\r\n"
            guard send(fd, head2) else { return }
            _ = send(fd, body)
        case .trickle(let interval):
            head2 += "\r\n"
            guard send(fd, head2) else { return }
            while !isStopped {
                guard send(fd, "x") else { return }
                usleep(UInt32(interval * 1_000_000))
            }
        case .huge(let bytes):
            head2 += "Content-Length: \(bytes)\r\n\r\n"
            guard send(fd, head2) else { return }
            stream(fd, bytes)
        case .hugeUndeclared(let bytes):
            head2 += "\r\n"
            guard send(fd, head2) else { return }
            stream(fd, bytes)
        }
    }

    private func stream(_ fd: Int32, _ bytes: Int) {
        let block = "{\"status\":1,\"product\":{\"ingredients_text\":\"" + String(repeating: "x", count: 65_000)
        var sent = 0
        while sent < bytes && !isStopped {
            guard send(fd, block) else { return }
            sent += block.utf8.count
        }
    }

    private func send(_ fd: Int32, _ text: String) -> Bool {
        send(fd, Array(text.utf8))
    }

    private func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var bytes = bytes
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}

/// Recorded product answers (trimmed to the requested fields) for the online tests.
enum RecordedProducts {
    /// A product with an English ingredient list.
    static let candy = #"""
        {"code":"4006381333931","product":{"code":"4006381333931","product_name":"Fruit chews","ingredients_text":"Sugar, glucose syrup, gelatine, acid: citric acid, colours: E102, E129, glazing agent: carnauba wax","ingredients_text_en":"Sugar, glucose syrup, gelatine, acid: citric acid, colours: E102, E129, glazing agent: carnauba wax"},"status":1,"status_verbose":"product found"}
        """#
    /// Main text empty, the English one filled in (a common shape in OFF data).
    static let englishOnly = #"""
        {"code":"0036000291452","product":{"code":"0036000291452","product_name":"Cola","ingredients_text":"","ingredients_text_en":"Carbonated water, sugar, colour: caramel E150d, acid: phosphoric acid, caffeine"},"status":1,"status_verbose":"product found"}
        """#
    /// The v2 answer for an unknown barcode (served with HTTP 404).
    static let notFound = #"{"code":"5901234123457","status":0,"status_verbose":"product not found"}"#
    /// Known, but nobody entered the ingredients.
    static let noIngredients = #"{"code":"5901234123457","product":{"code":"5901234123457","product_name":"Mystery"},"status":1}"#
    static let malformed = #"{"code":"4006381333931","product":{"ingredients_text":"Sugar, E1"#
}
