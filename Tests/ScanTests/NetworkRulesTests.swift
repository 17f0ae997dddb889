import Foundation
import Testing

/// Issue 16, items 9–11, through the `scan` binary: redirects, unbounded downloads and
/// credentials in addresses. Local servers only; every run has a bound.
@Suite struct NetworkRulesTests {
    static let candyPath = "/api/v2/product/4006381333931.json"

    /// Peak memory in MB of a run made under `/usr/bin/time -f %M` (its last stderr line, in KB).
    static func peakMB(_ run: ScanBinary.Run) -> Double? {
        run.stderr.split(separator: "\n").last.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }.map { $0 / 1024 }
    }

    @Test func aPackRedirectedToARefusedHostIsNotFetched() throws {
        let p = try PackCommandTests.Publisher()
        let pack = try Data(contentsOf: URL(fileURLWithPath: try p.publish("ecodex-10.0.0.pack")))
        let elsewhere = try ProductTestServer(routes: ["/x.pack": [.bytes(pack)]], host: "127.0.0.2")
        defer { elsewhere.stop() }
        let server = try ProductTestServer(routes: ["/x.pack": [.redirect(elsewhere.baseURL + "/x.pack")]])
        defer { server.stop() }
        // Given directly, 127.0.0.2 over http is refused.
        #expect(try p.scan.run(["pack", "apply", elsewhere.baseURL + "/x.pack"] + p.trusted).status == 15)
        let run = try p.scan.run(["pack", "apply", server.baseURL + "/x.pack"] + p.trusted, timeout: 60)
        #expect(run.status == 15, "update_error: \(run.stderr)")
        #expect(elsewhere.hits("/x.pack") == 0, "the redirect was followed")
        #expect(try p.installed().version != "10.0.0")
    }

    @Test func aProductLookupRedirectedToARefusedHostIsNotFollowedNorCached() throws {
        let scan = ScanBinary()
        let elsewhere = try ProductTestServer(routes: [Self.candyPath: [.json(RecordedProducts.candy)]], host: "127.0.0.2")
        defer { elsewhere.stop() }
        let server = try ProductTestServer(routes: [Self.candyPath: [.redirect(elsewhere.baseURL + Self.candyPath)]])
        defer { server.stop() }
        let env = ["ECODEX_OFF_URL": server.baseURL]
        let online = try scan.run(["barcode", "4006381333931", "--online", "--format", "json"], environment: env, timeout: 60)
        #expect(online.status == 14, "network_error: \(online.stdout)")
        #expect(online.jsonLines().first?.errorClass == "network_error")
        #expect(elsewhere.hits(Self.candyPath) == 0, "the redirect was followed")
        #expect(try scan.run(["barcode", "4006381333931"]).status == 13, "nothing was cached")
    }

    @Test func aPackDownloadWithoutALengthIsCutOffAtTheLimit() throws {
        let scan = ScanBinary()
        let server = try ProductTestServer(routes: ["/x.pack": [ProductTestServer.Response(status: 200, mode: .hugeUndeclared(bytes: 4 << 30))]])
        defer { server.stop() }
        let run = try scan.run(["pack", "apply", server.baseURL + "/x.pack"], timeout: 120, wrapper: ["/usr/bin/time", "-f", "%M"])
        #expect(run.status == 15, "update_error: \(run.stderr)")
        #expect(run.stderr.contains("too large"), "\(run.stderr)")
        let peak = try #require(Self.peakMB(run))
        print("pack download without a length: peak \(Int(peak)) MB")
        #expect(peak < 300, "peak \(peak) MB")
    }

    @Test func aTricklingPackServerIsCutOffAtTheTransferLimit() throws {
        let scan = ScanBinary()
        let server = try ProductTestServer(routes: ["/x.pack": [ProductTestServer.Response(status: 200, mode: .trickle(interval: 0.1))]])
        defer { server.stop() }
        // Every byte comes well within any idle timeout; only the whole-transfer limit ends it.
        let run = try scan.run(["pack", "apply", server.baseURL + "/x.pack"], environment: ["ECODEX_DOWNLOAD_SECONDS": "2"],
                               timeout: 40)
        #expect(run.status == 14, "network_error: \(run.stderr)")
        #expect(run.stderr.contains("did not download within 2 seconds"), "\(run.stderr)")
    }

    @Test func credentialsInAnAddressAreNeverLoggedOrShown() throws {
        let p = try PackCommandTests.Publisher()
        let pack = try Data(contentsOf: URL(fileURLWithPath: try p.publish("ecodex-10.0.0.pack")))
        let server = try ProductTestServer(routes: ["/x.pack": [.bytes(pack)]])
        defer { server.stop() }
        let withCredentials = "http://shopper:s3cret-pw@127.0.0.1:\(server.port)/x.pack"
        let apply = try p.scan.run(["pack", "apply", withCredentials] + p.trusted)
        #expect(apply.status == 0, "\(apply.stderr)")
        // An update that cannot be fetched is remembered, and shown, without them too.
        let pending = try p.scan.run(["update", "https://shopper:s3cret-pw@127.0.0.1:1/y.pack"] + p.trusted)
        #expect(pending.status == 14, "\(pending.stderr)")
        let status = try p.scan.run(["pack", "status"])
        #expect(status.status == 0, "\(status.stderr)")
        var written = apply.stdout + apply.stderr + pending.stdout + pending.stderr + status.stdout + status.stderr
        for name in (try? FileManager.default.contentsOfDirectory(atPath: p.scan.dataDir.path)) ?? [] {
            if let data = FileManager.default.contents(atPath: p.scan.dataDir.appendingPathComponent(name).path) {
                written += String(decoding: data, as: UTF8.self)
            }
        }
        #expect(!written.contains("s3cret-pw"), "a password was written or shown")
        #expect(!written.contains("shopper:"), "a user name was written or shown")
    }
}
