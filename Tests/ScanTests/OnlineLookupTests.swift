import Foundation
import Testing

/// `--online` end to end: the `scan` binary against a local Open Food Facts stand-in
/// (`ECODEX_OFF_URL`), and proof that without it nothing opens a network connection.
@Suite struct OnlineLookupTests {
    let scan = ScanBinary()
    static let candyPath = "/api/v2/product/4006381333931.json"

    @Test func onlineHitIsCachedAndThenFoundOfflineFromAPhoto() throws {
        let server = try ProductTestServer(routes: [Self.candyPath: [.json(RecordedProducts.candy)]])
        defer { server.stop() }
        let env = ["ECODEX_OFF_URL": server.baseURL]
        let online = try scan.run(["barcode", "4006381333931", "--online", "--format", "json"], environment: env)
        #expect(online.status == 0, "\(online.stderr)")
        let r = try #require(online.jsonLines().first)
        #expect(r.codes.contains("E102"), "\(r.codes)")
        #expect((warningMessages(r["warnings"]) ?? []).contains { $0.contains("Open Food Facts") })
        #expect(server.hits(Self.candyPath) == 1)
        server.stop()

        // Offline now: the product cache answers, for typed digits and for a photo.
        let typed = try scan.run(["barcode", "4006381333931", "--format", "json"], environment: env)
        #expect(typed.status == 0, "\(typed.stderr)")
        #expect((warningMessages(typed.jsonLines().first?["warnings"]) ?? []).contains { $0.contains("saved on this computer") })
        let photo = try scan.run([ScanBinary.path("samples/barcode-only.jpg"), "--format", "json"], environment: env, timeout: 60)
        #expect(photo.status == 0, "\(photo.stderr)")
        let p = try #require(photo.jsonLines().first)
        #expect(p.codes.contains("E102"), "\(p.codes)")
        #expect((warningMessages(p["warnings"]) ?? []).contains { $0.contains("saved on this computer") })
        let status = try scan.run(["products", "status", "--format", "json"])
        #expect(((status.jsonLines().first?["cache"]) as? [String: Any])?["products"] as? Int == 1)
    }

    /// The server holds its answer until it is stopped, so only the client's budget can end the
    /// lookup: a client that waited would be killed by the hang guard instead of exiting 14.
    @Test func networkFailureIsExit14OnlyWhenOnlineWasAsked() throws {
        var slow = ProductTestServer.Response.json(RecordedProducts.candy)
        slow.delay = 600
        let server = try ProductTestServer(routes: [Self.candyPath: [slow]])
        defer { server.stop() }
        let env = ["ECODEX_OFF_URL": server.baseURL]
        let run = try scan.run(["barcode", "4006381333931", "--online", "--format", "json"], environment: env, timeout: 120)
        #expect(run.status == 14, "\(run.stdout) \(run.stderr)")
        #expect(run.jsonLines().first?.errorClass == "network_error")
        #expect(server.hits(Self.candyPath) >= 1, "the lookup reached the server")
        // The same barcode without --online: the offline prompt, exit 13, no request.
        let before = server.requests.count
        let offline = try scan.run(["barcode", "4006381333931"], environment: env)
        #expect(offline.status == 13)
        #expect(server.requests.count == before)
    }

    @Test func notFoundOnlineIsALookupError() throws {
        let server = try ProductTestServer()
        defer { server.stop() }
        let run = try scan.run(["barcode", "5901234123457", "--online", "--format", "json"],
                               environment: ["ECODEX_OFF_URL": server.baseURL])
        #expect(run.status == 13, "\(run.stderr)")
        let r = try #require(run.jsonLines().first)
        #expect(r.errorClass == "lookup_error")
        let message = (r["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(message.contains("Open Food Facts has no ingredient list") && message.contains("scan text"), "\(message)")
        #expect(server.requests.count == 1)
    }

    @Test func savedOnlineSettingAndNoOnlineOverride() throws {
        let server = try ProductTestServer(routes: [Self.candyPath: [.json(RecordedProducts.candy)]])
        defer { server.stop() }
        let env = ["ECODEX_OFF_URL": server.baseURL]
        let set = try scan.run(["prefs", "set", "online", "yes"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.contains("online = yes"))
        let off = try scan.run(["barcode", "4006381333931", "--no-online"], environment: env)
        #expect(off.status == 13)
        #expect(server.requests.isEmpty)
        let on = try scan.run(["barcode", "4006381333931"], environment: env)
        #expect(on.status == 0, "\(on.stderr)")
        #expect(server.hits(Self.candyPath) == 1)
    }

    // MARK: - Privacy: no --online, no network

    /// The network system calls `scan` made, from `strace -f -e trace=network`.
    func networkCalls(_ arguments: [String], environment: [String: String], sourceLocation: SourceLocation = #_sourceLocation)
        throws -> (run: ScanBinary.Run, inet: [String])? {
        guard let strace = ["/usr/bin/strace", "/bin/strace"].first(where: FileManager.default.isExecutableFile) else {
            Issue.record("strace is not installed; the project setup must install it (apt-get install strace).",
                         sourceLocation: sourceLocation)
            return nil
        }
        let trace = scan.dataDir.appendingPathComponent("trace-\(UUID().uuidString).txt").path
        let run = try runWrapped(scan, [strace, "-f", "-qq", "-e", "trace=network", "-o", trace], arguments,
                                 environment: environment, timeout: 90)
        let text = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
        #expect(!text.isEmpty, "strace wrote no trace (is ptrace allowed here?)", sourceLocation: sourceLocation)
        // Local sockets (AF_UNIX: name-service lookups) are fine; any IPv4/IPv6 socket or connect is not.
        let inet = text.split(separator: "\n").map(String.init).filter {
            $0.contains("AF_INET") || $0.contains("AF_INET6") || $0.contains("sin_port") || $0.contains("sin6_port")
        }
        return (run, inet)
    }

    @Test func aDefaultScanOpensNoNetworkConnection() throws {
        // A live stand-in, so an unwanted lookup would have somewhere to go.
        let server = try ProductTestServer(routes: [Self.candyPath: [.json(RecordedProducts.candy)]])
        defer { server.stop() }
        let env = ["ECODEX_OFF_URL": server.baseURL]
        for arguments in [
            [ScanBinary.path("samples/barcode-only.jpg"), "--format", "json"],
            ["barcode", "4006381333931", "--format", "json"],
            ["text", "Sugar, colours: E102, E129"],
        ] {
            guard let (run, inet) = try networkCalls(arguments, environment: env) else { return }
            #expect(run.status == 0 || run.status == 13, "\(arguments): \(run.stderr)")
            #expect(inet.isEmpty, "\(arguments) made network calls: \(inet)")
        }
        #expect(server.requests.isEmpty)
        // The check sees a connection when there is one.
        guard let (_, inet) = try networkCalls(["barcode", "4006381333931", "--online"], environment: env) else { return }
        #expect(!inet.isEmpty)
    }

    @Test func withoutANetworkAtAllScansStillWork() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        probe.arguments = ["-n", "/bin/true"]
        probe.standardError = FileHandle.nullDevice
        try probe.run()
        probe.waitUntilExit()
        guard probe.terminationStatus == 0 else {
            // Not root (or no user namespaces): strace above still covers the privacy check.
            return
        }
        let photo = try runWrapped(scan, ["/usr/bin/unshare", "-n"], [ScanBinary.path("samples/barcode-only.jpg"), "--format", "json"],
                                   timeout: 60)
        #expect(photo.status == 0, "\(photo.stderr)")
        let warnings = warningMessages(photo.jsonLines().first?["warnings"]) ?? []
        #expect(warnings.contains { $0.contains("online") && $0.contains("type the ingredients") }, "\(warnings)")
        let online = try runWrapped(scan, ["/usr/bin/unshare", "-n"], ["barcode", "4006381333931", "--online", "--format", "json"])
        #expect(online.status == 14, "\(online.stderr)")
    }
}
