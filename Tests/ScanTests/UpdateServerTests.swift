import EcodexCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// The optional backend end to end: a real `ecodex-server` (on SQLite, and on a PostgreSQL
/// cluster the tests start: each test runs on both) on 127.0.0.1,
/// packs published with a token, and `scan update` asking it through the binary.
@Suite(.serialized) struct UpdateServerTests {
    typealias Publisher = PackCommandTests.Publisher

    /// Publishes 10.0.0 (full) to a new server and applies it on the client; returns the server,
    /// its token, and the signed 10.1.0 delta.
    static func started(_ p: Publisher, _ extra: [String] = [], backend: ServerBackend,
                        environment: [String: String] = [:]) throws -> (UpdateServerProcess, String, String) {
        let delta = try PackCommandTests.prepared(p)
        let server = try UpdateServerProcess(backend: backend)
        server.environment = environment
        let token = try server.addToken()
        #expect(token.hasPrefix("ecx_") && token.count == 68, "add-token prints the token: \(token)")
        try server.start(["--trusted", p.path("trusted.json")] + extra)
        let full = try post(server, p.path("ecodex-10.0.0.pack"), token: token)
        #expect(full.status == 201, "the full pack is published: \(full.text)")
        return (server, token, delta)
    }

    static func post(_ server: UpdateServerProcess, _ path: String, token: String) throws -> HTTP.Reply {
        try post(server, Data(contentsOf: URL(fileURLWithPath: path)), token: token)
    }

    static func post(_ server: UpdateServerProcess, _ bytes: Data, token: String) throws -> HTTP.Reply {
        try HTTP.request("POST", server.base + "/v1/packs", headers: ["Authorization": "Bearer \(token)"], body: bytes)
    }

    /// The client: its region and update server saved as a user would.
    static func configure(_ p: Publisher, _ server: UpdateServerProcess, region: String = "EU") throws {
        for args in [["prefs", "set", "region", region], ["prefs", "set", "update-server", server.base]] {
            let run = try p.scan.run(args)
            #expect(run.status == 0, "\(args): \(run.stderr)")
        }
    }

    @Test(arguments: ServerBackend.allCases) func publishWithATokenThenScanUpdateInstallsTheDelta(backend: ServerBackend) throws {
        let p = try Publisher()
        let (server, token, delta) = try Self.started(p, backend: backend)
        defer { server.stop() }

        // Refused: no token, a wrong token; nothing is published by them.
        #expect(try Self.post(server, delta, token: "").status == 401)
        #expect(try Self.post(server, delta, token: token + "0").status == 401)
        #expect(try Self.post(server, delta, token: "ecx_" + String(repeating: "0", count: 64)).status == 401)
        let before = try HTTP.request("GET", server.base + "/v1/packs/latest?region=EU&from=10.0.0")
        #expect(before.json["version"] as? String == "10.0.0", "\(before.text)")

        let published = try Self.post(server, delta, token: token)
        #expect(published.status == 201, "\(published.text)")
        #expect(published.json["version"] as? String == "10.1.0")
        #expect(try Self.post(server, delta, token: token).status == 409, "the same version twice is a conflict")

        // The metadata: the newest version, its checksum, and the chain from the client's version.
        let latest = try HTTP.request("GET", server.base + "/v1/packs/latest?region=EU&from=10.0.0")
        #expect(latest.status == 200)
        #expect(latest.json["version"] as? String == "10.1.0")
        #expect((latest.json["checksum"] as? String)?.hasPrefix("sha256:") == true)
        let chain = latest.json["chain"] as? [[String: Any]] ?? []
        #expect(chain.map { $0["version"] as? String } == ["10.1.0"])
        #expect(try HTTP.request("GET", server.base + "/v1/packs/latest?region=Mars").status == 400)

        // One additive with its rules, as JSON with version and checksum.
        let record = try HTTP.request("GET", server.base + "/v1/additives/E330")
        #expect(record.status == 200, "\(record.text)")
        #expect(record.json["version"] as? String == "10.1.0")
        #expect((record.json["checksum"] as? String)?.hasPrefix("sha256:") == true)
        let additive = record.json["additive"] as? [String: Any] ?? [:]
        #expect((additive["plain_risk"] as? [String: Any])?["summary"] as? String == PackCommandTests.newLine)
        #expect(additive["region_rules"] is [String: Any])
        #expect(try HTTP.request("GET", server.base + "/v1/additives/E173").status == 404, "not in the published packs")
        #expect(try HTTP.request("GET", server.base + "/v1/additives/sugar").status == 400)

        // The client asks the server and installs the chain.
        try Self.configure(p, server)
        let update = try p.scan.run(["update"] + p.trusted)
        #expect(update.status == 0, "\(update.stdout)\(update.stderr)")
        #expect(update.stdout.contains("Installed pack 10.1.0"), "\(update.stdout)")
        #expect(try p.installed() == PackCommandTests.new)
        let again = try p.scan.run(["update"] + p.trusted)
        #expect(again.status == 0 && again.stdout.contains("Already up to date"), "\(again.stdout + again.stderr)")

        let health = try HTTP.request("GET", server.base + "/health")
        #expect(health.status == 200 && health.json["status"] as? String == "ok")
        let metrics = try HTTP.request("GET", server.base + "/metrics")
        #expect(metrics.status == 200 && metrics.text.contains("http_server_request_duration"), "\(metrics.text)")
        // Its own listening port and the database it was given are the only addresses it may name.
        let own = ["\(server.port)"] + (URLComponents(string: server.database)?.port.map { ["\($0)/"] } ?? [])
        let addresses = server.output.components(separatedBy: "127.0.0.1:").dropFirst()
        #expect(addresses.allSatisfy { a in own.contains { a.hasPrefix($0) } }, "the log names no client address: \(server.output)")
    }

    @Test(arguments: ServerBackend.allCases) func aClientTwoVersionsBehindGetsTheWholeChain(backend: ServerBackend) throws {
        let p = try Publisher()
        let (server, token, delta) = try Self.started(p, backend: backend)
        defer { server.stop() }
        #expect(try Self.post(server, delta, token: token).status == 201)
        let fullNow = try p.publish("ecodex-10.1.0-full.pack")  // the base the next delta is built from
        try p.writeSource(version: "10.2.0", citric: "Made from sugar by a mould.")
        let second = try p.publish("ecodex-10.2.0.pack", diffFrom: fullNow)
        #expect(try Self.post(server, p.path("ecodex-10.0.0.pack"), token: token).status == 409, "an older version is refused")
        #expect(try Self.post(server, second, token: token).status == 201)

        let latest = try HTTP.request("GET", server.base + "/v1/packs/latest?region=EU&from=10.0.0")
        #expect((latest.json["chain"] as? [[String: Any]] ?? []).map { $0["version"] as? String } == ["10.1.0", "10.2.0"], "\(latest.text)")
        try Self.configure(p, server)
        let update = try p.scan.run(["update"] + p.trusted)
        #expect(update.status == 0, "\(update.stderr)")
        #expect(update.stdout.contains("Installed pack 10.1.0") && update.stdout.contains("Installed pack 10.2.0"), "\(update.stdout)")
        #expect(try p.installed() == PackCommandTests.Installed("10.2.0", "Made from sugar by a mould."))
    }

    @Test(arguments: ServerBackend.allCases) func unsignedAndTamperedPacksAreRefusedByServerAndClient(backend: ServerBackend) throws {
        let p = try Publisher()
        let (server, token, delta) = try Self.started(p, backend: backend)
        defer { server.stop() }
        let signed = try Data(contentsOf: URL(fileURLWithPath: delta))

        // Unsigned: built, never signed.
        let unsigned = p.path("unsigned.pack")
        let build = try p.scan.run(["pack", "build", "--source", p.path("src"), "--update", unsigned,
                                    "--diff-from", p.path("ecodex-10.0.0.pack")])
        #expect(build.status == 0, "\(build.stderr)")
        let refusedUnsigned = try Self.post(server, unsigned, token: token)
        #expect(refusedUnsigned.status == 422, "\(refusedUnsigned.text)")
        #expect(refusedUnsigned.text.contains("signature"), "\(refusedUnsigned.text)")

        // Tampered: one word of the payload changed after signing.
        let tampered = Data(String(decoding: signed, as: UTF8.self).replacingOccurrences(of: "made in vats", with: "made in vets").utf8)
        #expect(tampered != signed)
        #expect(try Self.post(server, tampered, token: token).status == 422)

        // The server publishes the genuine delta; the client refuses it when its own keys do
        // not trust the signers (the keys built into scan), and its store stays as it was.
        #expect(try Self.post(server, signed, token: token).status == 201)
        try Self.configure(p, server)
        let untrusted = try p.scan.run(["update"])
        #expect(untrusted.status == 15, "update_error: \(untrusted.stderr)")
        #expect(try p.installed() == PackCommandTests.old)

        // A pack damaged on the server's disk after publishing: the client refuses it.
        let script = """
            import sqlite3, sys, hashlib
            db = sqlite3.connect(sys.argv[1])
            f = db.execute("SELECT file FROM packs WHERE version='10.1.0'").fetchone()[0].replace('made in vats', 'made in vets')
            db.execute("UPDATE packs SET file=?, checksum=? WHERE version='10.1.0'", (f, 'sha256:' + hashlib.sha256(f.encode()).hexdigest()))
            db.commit()
            """
        if backend == .postgres {
            // The same damage in SQL: the text replaced in place, the listed checksum made to match.
            let cluster = try PostgresTestCluster.shared.get()
            try PostgresTestCluster.run([cluster.bin.appendingPathComponent("psql").path, server.database, "-v", "ON_ERROR_STOP=1", "-c", """
                UPDATE packs SET file = replace(file, 'made in vats', 'made in vets') WHERE version = '10.1.0';
                UPDATE packs SET checksum = 'sha256:' || encode(sha256(convert_to(file, 'UTF8')), 'hex') WHERE version = '10.1.0';
                """])
        } else {
            let python = Process()
            python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            python.arguments = ["-c", script, server.database]
            try python.run()
            python.waitUntilExit()
            #expect(python.terminationStatus == 0)
        }
        let damaged = try p.scan.run(["update"] + p.trusted)
        #expect(damaged.status == 15, "update_error: \(damaged.stdout)\(damaged.stderr)")
        #expect(try p.installed() == PackCommandTests.old)
    }

    /// The server's clock as the tests set it (UNIX seconds).
    static let clockVariable = "ECODEX_SERVER_NOW"

    /// The link is checked with the server's clock set (not waited for): valid one second
    /// before its expiry, refused at it. The server restarts between, as links survive a restart.
    @Test(arguments: ServerBackend.allCases) func downloadLinksExpireAndCannotBeForged(backend: ServerBackend) throws {
        let p = try Publisher()
        // Near the real time, so the packs' own creation and expiry dates hold.
        let issued = Int(Date().timeIntervalSince1970)
        let lifetime = 300
        let options = ["--url-lifetime", "\(lifetime)"]
        let (server, token, delta) = try Self.started(p, options, backend: backend, environment: [Self.clockVariable: "\(issued)"])
        defer { server.stop() }
        #expect(try Self.post(server, delta, token: token).status == 201)

        let info = try HTTP.request("GET", server.base + "/v1/packs/10.1.0")
        #expect(info.status == 200, "\(info.text)")
        let path = try #require(info.json["url"] as? String)
        #expect(info.json["checksum"] as? String != nil && info.json["version"] as? String == "10.1.0")
        #expect(path.contains("expires=\(issued + lifetime)&"), "\(path)")
        let forged = path.replacingOccurrences(of: "10.1.0.pack", with: "10.0.0.pack")
        #expect(try HTTP.request("GET", server.base + forged).status == 403, "a link is for one version only")
        let fresh = try HTTP.request("GET", server.base + path)
        let original = try Data(contentsOf: URL(fileURLWithPath: delta))
        #expect(fresh.status == 200 && fresh.body == original)

        for (at, status) in [(issued + lifetime - 1, 200), (issued + lifetime, 403)] {
            server.stop()
            server.environment = [Self.clockVariable: "\(at)"]
            try server.start(["--trusted", p.path("trusted.json")] + options)
            let reply = try HTTP.request("GET", server.base + path)
            #expect(reply.status == status, "at issue + \(at - issued) s: \(reply.status) \(reply.text.prefix(200))")
        }
    }

    /// Writes the pack source's regions (the records keep their EU rules).
    static func setRegions(_ p: Publisher, version: String, _ regions: [String]) throws {
        let list = regions.map { "\"\($0)\"" }.joined(separator: ", ")
        try Data(#"{"version": "\#(version)", "data_version": "data-\#(version)", "regions": [\#(list)]}"#.utf8)
            .write(to: URL(fileURLWithPath: p.path("src/pack.json")))
    }

    static func chain(_ server: UpdateServerProcess, region: String, from: String) throws -> (versions: [String], complete: Bool, latest: String) {
        let reply = try HTTP.request("GET", server.base + "/v1/packs/latest?region=\(region)&from=\(from)")
        #expect(reply.status == 200, "\(reply.text)")
        let chain = (reply.json["chain"] as? [[String: Any]] ?? []).compactMap { $0["version"] as? String }
        return (chain, reply.json["chain_complete"] as? Bool ?? false, reply.json["version"] as? String ?? "")
    }

    /// A delta listing only EU still lies on a US client's path: one store holds every
    /// region's rules in one version, and the next delta (for both) builds on that version.
    @Test(arguments: ServerBackend.allCases) func aDeltaForOneRegionLeavesNoRegionBehind(backend: ServerBackend) throws {
        let p = try Publisher()
        try Self.setRegions(p, version: "10.0.0", ["EU", "US"])
        let (server, token, euOnly) = try Self.started(p, backend: backend)  // 10.0.0 for EU and US; 10.1.0 for EU only
        defer { server.stop() }
        #expect(try Self.post(server, euOnly, token: token).status == 201)
        let one = try Self.chain(server, region: "US", from: "10.0.0")
        #expect(one.latest == "10.1.0" && one.versions == ["10.1.0"] && one.complete, "\(one)")

        let fullNow = try p.publish("ecodex-10.1.0-full.pack")
        try p.writeSource(version: "10.2.0", citric: "Made from sugar by a mould.")
        try Self.setRegions(p, version: "10.2.0", ["EU", "US"])
        #expect(try Self.post(server, p.publish("ecodex-10.2.0.pack", diffFrom: fullNow), token: token).status == 201)

        for region in ["US", "EU", "UK"] {
            let behind = try Self.chain(server, region: region, from: "10.0.0")
            #expect(behind.latest == "10.2.0" && behind.versions == ["10.1.0", "10.2.0"] && behind.complete, "\(region): \(behind)")
        }
        let fresh = try Self.chain(server, region: "US", from: "1.0.0")
        #expect(fresh.versions == ["10.0.0", "10.1.0", "10.2.0"] && fresh.complete, "a client on the built-in data: \(fresh)")

        // The US client ends with the newest version's data, as an EU client does.
        try Self.configure(p, server, region: "US")
        let update = try p.scan.run(["update"] + p.trusted)
        #expect(update.status == 0, "\(update.stdout)\(update.stderr)")
        #expect(try p.installed() == PackCommandTests.Installed("10.2.0", "Made from sugar by a mould."))
    }

    /// One size limit for the server and its clients: a pack no client would download is refused.
    @Test func aPackLargerThanClientsDownloadIsRefused() throws {
        let p = try Publisher()
        let (server, token, _) = try Self.started(p, backend: .sqlite)
        defer { server.stop() }
        let over = try Self.post(server, Data(repeating: 0x7B, count: PackFile.maximumBytes + 1), token: token)
        #expect(over.status == 413, "\(over.status) \(over.text.prefix(300))")
        #expect(over.text.contains("\(PackFile.maximumBytes) bytes"), "\(over.text.prefix(300))")
        // At the limit the size passes; these bytes are refused as not a pack.
        let at = try Self.post(server, Data(repeating: 0x7B, count: PackFile.maximumBytes), token: token)
        #expect(at.status == 422, "\(at.status) \(at.text.prefix(300))")
        #expect(try Self.chain(server, region: "EU", from: "10.0.0").latest == "10.0.0", "nothing was published")
    }

    /// A raw TCP connection to the server, for what URLSession cannot send (headers cut short).
    final class RawConnection {
        let fd: Int32

        init(port: Int) throws {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard fd >= 0, rc == 0 else { throw UpdateServerProcess.ServerError(description: "connect: \(String(cString: strerror(errno)))") }
        }

        deinit { close(fd) }

        func send(_ text: String) -> Bool {
            let bytes = Array(text.utf8)
            return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
        }

        /// Reads until the server closes the connection: true then, false when a read waits
        /// `seconds` (a generous bound on the wait, not a measure of speed).
        func closedByServer(waitingAtMost seconds: Int = 120) -> Bool {
            var limit = timeval(tv_sec: seconds, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = read(fd, &buffer, buffer.count)
                if n == 0 { return true }
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno == ECONNRESET
                }
            }
        }
    }

    /// A client sending headers a byte at a time (or nothing after an answer) is closed after
    /// the header timeout, and one that stops in the middle of a body after the idle timeout.
    @Test func slowClientsAreDisconnected() throws {
        let server = try UpdateServerProcess()
        try server.start(["--header-timeout", "1", "--idle-timeout", "3600"])
        defer { server.stop() }
        let slowHeaders = try RawConnection(port: server.port)
        #expect(slowHeaders.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a"))
        #expect(slowHeaders.closedByServer(), "a request head that never ends")
        let keptAlive = try RawConnection(port: server.port)
        #expect(keptAlive.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
        #expect(keptAlive.closedByServer(), "after its answer, no next request")
        server.stop()

        try server.start(["--header-timeout", "3600", "--idle-timeout", "1"])
        let stalledBody = try RawConnection(port: server.port)
        #expect(stalledBody.send("POST /v1/telemetry HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"))
        #expect(stalledBody.closedByServer(), "a body that stops")
        let health = try HTTP.request("GET", server.base + "/health")
        #expect(health.status == 200, "the server still answers others")
    }

    /// The database holds the download-link key: it and its WAL and shm files are the owner's
    /// only, with no umask to help, and a file an older version left readable is made so too.
    @Test func theServerDatabaseIsPrivateWhateverTheUmask() throws {
        let server = try UpdateServerProcess()
        server.umask = 0
        _ = try server.addToken()
        func modes() -> [String: mode_t] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: server.folder.path)) ?? []
            var out: [String: mode_t] = [:]
            for name in names where name.hasPrefix("server.sqlite") {
                var info = stat()
                if stat(server.folder.appendingPathComponent(name).path, &info) == 0 { out[name] = info.st_mode & 0o777 }
            }
            return out
        }
        #expect(modes()["server.sqlite"] == 0o600, "created by add-token: \(modes())")

        chmod(server.database, 0o644)
        try server.start()
        defer { server.stop() }
        let id = String(repeating: "ab", count: 16)
        let event = #"{"events":[{"app_version":"0.9.0","data_version":"2026.11.22","day":"2026-11-23","install_id":"\#(id)","name":"flags_count","value":2}]}"#
        let sent = try HTTP.request("POST", server.base + "/v1/telemetry", headers: ["Content-Type": "application/json"], body: Data(event.utf8))
        #expect(sent.status == 202)
        let found = modes()
        #expect(Set(found.keys).isSuperset(of: ["server.sqlite", "server.sqlite-wal", "server.sqlite-shm"]), "\(found)")
        #expect(found.values.allSatisfy { $0 == 0o600 }, "\(found.mapValues { String($0, radix: 8) })")
    }
}

/// Telemetry (requirements §12): nothing leaves without the opt-in, and what leaves carries no label words.
@Suite(.serialized) struct TelemetryTests {
    static let label = "Ingredients: water, sugar, grandmother's marmalade, citric acid, potassium sorbate, E330"

    static func started(backend: ServerBackend = .sqlite) throws -> (UpdateServerProcess, ScanBinary) {
        let server = try UpdateServerProcess(backend: backend)
        try server.start()
        let scan = ScanBinary()
        for args in [["prefs", "set", "region", "EU"], ["prefs", "set", "update-server", server.base]] {
            #expect(try scan.run(args).status == 0)
        }
        return (server, scan)
    }

    /// The connect() calls of a scan run, as strace sees them.
    static func connects(_ scan: ScanBinary) throws -> [String] {
        let trace = scan.dataDir.appendingPathComponent("strace-\(UUID().uuidString).txt").path
        let run = try scan.run(["text", label, "--region", "EU"], wrapper: ["/usr/bin/strace", "-f", "-e", "trace=connect", "-o", trace])
        #expect(run.status == 0, "\(run.stderr)")
        let text = (try? String(contentsOf: URL(fileURLWithPath: trace), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init).filter { $0.contains("AF_INET") }
    }

    static func storedEvents(_ server: UpdateServerProcess) throws -> String {
        if server.database.hasPrefix("postgres://") {
            let cluster = try PostgresTestCluster.shared.get()
            return try PostgresTestCluster.run([cluster.bin.appendingPathComponent("psql").path, server.database, "-At", "-c",
                                                "SELECT event FROM telemetry ORDER BY id"])
        }
        let out = server.folder.appendingPathComponent("events.txt")
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = ["-c", "import sqlite3, sys; open(sys.argv[2], 'w').write('\\n'.join(r[0] for r in sqlite3.connect(sys.argv[1]).execute('SELECT event FROM telemetry')))",
                            server.database, out.path]
        try python.run()
        python.waitUntilExit()
        return try String(contentsOf: out, encoding: .utf8)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace")))
    func aDefaultRunConnectsNowhere() throws {
        let (server, scan) = try Self.started()
        defer { server.stop() }
        #expect(try Self.connects(scan) == [], "no opt-in: no connection")
        #expect(try scan.run(["telemetry", "show"]).stdout.contains("Queued events: 0"))

        // The check can fail: the same run after the opt-in does connect.
        #expect(try scan.run(["prefs", "set", "telemetry", "yes"]).status == 0)
        #expect(try !Self.connects(scan).isEmpty, "opted in: the batch is sent")
    }

    @Test(arguments: ServerBackend.allCases) func optedInEventsCarryNoLabelWords(backend: ServerBackend) throws {
        let (server, scan) = try Self.started(backend: backend)
        defer { server.stop() }
        #expect(try scan.run(["prefs", "set", "telemetry", "yes"]).status == 0)
        // A generous send budget: on a busy machine the default 0.3 s may pass before the server answers.
        let patient = ["ECODEX_TELEMETRY_SECONDS": "10"]
        let run = try scan.run(["text", Self.label, "--region", "EU"], environment: patient)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try scan.run(["telemetry", "show"]).stdout.contains("Queued events: 0"), "the batch was sent")

        let events = try Self.storedEvents(server)
        for name in ["scan_started", "scan_completed", "additives_count", "flags_count"] {
            #expect(events.contains("\"\(name)\""), "\(name) in \(events)")
        }
        let words = Self.label.lowercased().split { !$0.isLetter && !$0.isNumber }.filter { $0.count >= 3 }
        for word in words { #expect(!events.lowercased().contains(word), "\"\(word)\" left the computer: \(events)") }

        // A reset id: new events carry a different one.
        let before = try #require(events.split(separator: "\n").first.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect(try scan.run(["telemetry", "reset-id"]).status == 0)
        #expect(try scan.run(["text", "water", "--region", "EU"], environment: patient).status == 0)
        let after = try Self.storedEvents(server).split(separator: "\n").last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(before["install_id"] as? String != nil && before["install_id"] as? String != after?["install_id"] as? String)
    }

    @Test func theServerRefusesAnythingOutsideTheSchema() throws {
        let server = try UpdateServerProcess()
        try server.start()
        defer { server.stop() }
        let id = String(repeating: "ab", count: 16)
        func post(_ body: String, type: String = "application/json") throws -> Int {
            try HTTP.request("POST", server.base + "/v1/telemetry", headers: ["Content-Type": type], body: Data(body.utf8)).status
        }
        let good = #"{"app_version":"0.9.0","data_version":"2026.11.22","day":"2026-11-23","install_id":"\#(id)","name":"flags_count","value":2}"#
        #expect(try post(#"{"events":[\#(good)]}"#) == 202)
        #expect(try post(#"{"events":[\#(good.dropLast()),"text":"water, sugar"}]}"#) == 400, "an unknown member")
        #expect(try post(#"{"events":[\#(good)],"image":"iVBORw0KGgo="}"#) == 400)
        #expect(try post("\u{89}PNG", type: "image/png") == 415)
        #expect(try post(#"{"events":[\#(good.replacingOccurrences(of: "flags_count", with: "barcode"))]}"#) == 400)
        let big = #"{"events":["# + Array(repeating: good, count: 200).joined(separator: ",") + "]}"
        #expect(try post(big) == 413)
    }
}
