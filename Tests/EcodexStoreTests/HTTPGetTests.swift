import EcodexCore
import Foundation
import Testing
@testable import EcodexOnline

/// The one HTTP GET's rules (issue 16, items 9–11), over real HTTP against local servers.
/// Every case is bounded by the limits it passes; none asserts a duration.
@Suite struct HTTPGetTests {
    static let limits = HTTPGet.Limits(bytes: 1 << 20, seconds: 5)

    @Test func aRedirectToAHostRefusedOnItsOwnIsRefused() throws {
        // 127.0.0.2 is this computer too, but not a host plain http may go to.
        let elsewhere = try ProductTestServer(routes: ["/x": [.json("{}")]], host: "127.0.0.2")
        defer { elsewhere.stop() }
        let server = try ProductTestServer(routes: ["/x": [.redirect(elsewhere.baseURL + "/x")]])
        defer { server.stop() }
        #expect(!URLPolicy.isAllowed(URL(string: elsewhere.baseURL + "/x")!))
        let result = HTTPGet.get(URL(string: server.baseURL + "/x")!, limits: Self.limits)
        guard case .failure(.refusedRedirect) = result else { Issue.record("followed: \(result)"); return }
        #expect(elsewhere.hits("/x") == 0)
    }

    /// Refused redirects and redirect loops, 320 of them from 8 threads at once, all end as
    /// refusals. (With URLSession a refused redirect could trap in FoundationNetworking when the
    /// task was cancelled while its redirect callback was still due; redirects are now followed
    /// by HTTPGet itself, one plain request at a time.)
    @Test func refusedRedirectsFromManyThreadsAllEndAsRefusals() throws {
        let server = try ProductTestServer(routes: ["/out": [.redirect("http://127.0.0.2:9/x")]], maxConnections: 1_000)
        defer { server.stop() }
        server.set("/loop", [.redirect(server.baseURL + "/loop")])
        let refused = URL(string: server.baseURL + "/out")!, loop = URL(string: server.baseURL + "/loop")!
        let failures = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for i in 0..<40 {
                let result = HTTPGet.get((worker + i) % 2 == 0 ? refused : loop,
                                         limits: HTTPGet.Limits(bytes: 1 << 20, seconds: 10, redirects: 1))
                switch result {
                case .failure(.refusedRedirect), .failure(.tooManyRedirects): break
                default: failures.add()
                }
            }
        }
        #expect(failures.value == 0)
    }

    @Test func redirectsWithinTheRulesAreFollowedAndCapped() throws {
        let server = try ProductTestServer()
        defer { server.stop() }
        server.set("/end", [.json(#"{"ok":1}"#)])
        server.set("/one", [.redirect(server.baseURL + "/end")])
        guard case .success(let answer) = HTTPGet.get(URL(string: server.baseURL + "/one")!, limits: Self.limits) else {
            Issue.record("a loopback-to-loopback redirect was refused"); return
        }
        #expect(answer.status == 200 && answer.body == Data(#"{"ok":1}"#.utf8))
        // An endless loop of redirects ends at the cap.
        server.set("/loop", [.redirect(server.baseURL + "/loop")])
        let loop = HTTPGet.get(URL(string: server.baseURL + "/loop")!, limits: HTTPGet.Limits(bytes: 1 << 20, seconds: 10, redirects: 3))
        guard case .failure(.tooManyRedirects) = loop else { Issue.record("redirect loop: \(loop)"); return }
        #expect(server.hits("/loop") <= 4)
    }

    @Test(arguments: [
        ("https://a.org/x", "https://b.org/y", true), ("https://a.org/x", "http://b.org/y", false),
        ("https://a.org/x", "http://127.0.0.1/y", false), ("http://127.0.0.1/x", "http://localhost/y", true),
        ("http://127.0.0.1/x", "http://127.0.0.2/y", false), ("http://127.0.0.1/x", "http://example.org/y", false),
        ("http://127.0.0.1/x", "https://example.org/y", false), ("https://a.org/x", "ftp://a.org/y", false),
        ("https://a.org/x", "file:///etc/passwd", false),
    ])
    func redirectRules(from: String, to: String, allowed: Bool) {
        #expect(URLPolicy.mayRedirect(from: URL(string: from)!, to: URL(string: to)!) == allowed)
    }

    @Test func aBodyWithoutLengthIsCutOffWhileStreaming() throws {
        let server = try ProductTestServer(routes: ["/big": [ProductTestServer.Response(status: 200, mode: .hugeUndeclared(bytes: 1 << 30))]])
        defer { server.stop() }
        let result = HTTPGet.get(URL(string: server.baseURL + "/big")!, limits: HTTPGet.Limits(bytes: 256 << 10, seconds: 20))
        guard case .failure(.tooLarge(let limit)) = result else { Issue.record("not cut off: \(result)"); return }
        #expect(limit == 256 << 10)
    }

    @Test func aTricklingServerCannotOutlastTheTransferLimit() throws {
        let server = try ProductTestServer(routes: ["/slow": [ProductTestServer.Response(status: 200, mode: .trickle(interval: 0.05))]])
        defer { server.stop() }
        // Each byte arrives well within any idle timeout; only a bound on the whole transfer ends it.
        let result = HTTPGet.get(URL(string: server.baseURL + "/slow")!, limits: HTTPGet.Limits(bytes: 1 << 20, seconds: 1.5))
        guard case .failure(.timedOut) = result else { Issue.record("trickle not stopped: \(result)"); return }
    }

    @Test(arguments: [
        ("https://user:secret@example.org/x.pack", "https://example.org/x.pack"),
        ("http://u@127.0.0.1:8080/p?q=a@b", "http://127.0.0.1:8080/p?q=a@b"),
        ("https://example.org/a@b", "https://example.org/a@b"), ("/tmp/x@y.pack", "/tmp/x@y.pack"),
        ("https://a:b@c:d@example.org/", "https://example.org/"),
    ])
    func credentialsAreNeverShown(url: String, shown: String) {
        #expect(URLText.redacted(url) == shown)
    }
}

/// A count shared by threads.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add() { lock.lock(); n += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return n }
}
