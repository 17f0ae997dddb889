import Foundation
import Testing

/// The publisher and user flows through the `scan` binary: keygen, build, sign,
/// verify, apply, status, rollback, update; and crashes in the middle of apply.
@Suite struct PackCommandTests {
    /// A scratch project: a pack source, two publisher keys and a trust file naming them.
    final class Publisher {
        let scan = ScanBinary()
        let root: URL
        /// The test's keys for the commands that check signatures: the program trusts only its own.
        var trusted: [String] { ["--trusted", path("trusted.json")] }

        init() throws {
            root = scan.dataDir.deletingLastPathComponent().appendingPathComponent("ecodex-publisher-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root.appendingPathComponent("src/additives"), withIntermediateDirectories: true)
            try writeSource(version: "10.0.0", citric: "The sour acid in lemons.")
            for name in ["alice", "bob"] {
                let run = try scan.run(["pack", "keygen", "--owner", name, "--out", path("\(name).key"), "--trust", path("trusted.json")])
                #expect(run.status == 0, "\(run.stderr)")
            }
        }

        deinit { try? FileManager.default.removeItem(at: root) }

        func path(_ name: String) -> String { root.appendingPathComponent(name).path }

        /// Writes the pack source: three records, E330's plain line as given.
        func writeSource(version: String, citric: String) throws {
            let ref = #"[{"label": "EU Regulation (EC) No 1333/2008", "url": "https://eur-lex.europa.eu/eli/reg/2008/1333/oj"}]"#
            func record(_ code: String, _ name: String, _ cls: String, _ summary: String) -> String {
                #"{"code": "\#(code)", "names": {"en": ["\#(name)"]}, "class": ["\#(cls)"], "#
                    + #""dietary": {"vegan": "yes", "vegetarian": "yes", "kosher": "yes", "halal": "yes"}, "#
                    + #""region_rules": {"EU": {"approved": true, "warning_required": false}}, "evidence_level": "Regulatory", "#
                    + #""plain_risk": {"summary": "\#(summary)", "audience": []}, "references": \#(ref), "updated_at": "2026-11-21"}"#
            }
            let src = root.appendingPathComponent("src")
            try Data(#"{"version": "\#(version)", "data_version": "data-\#(version)", "regions": ["EU"]}"#.utf8)
                .write(to: src.appendingPathComponent("pack.json"))
            let records = [
                ("E330", record("E330", "Citric acid", "acid", citric)),
                ("E202", record("E202", "Potassium sorbate", "preservative", "It stops mould from growing.")),
                ("E300", record("E300", "Ascorbic acid", "antioxidant", "Vitamin C, used to keep food from browning.")),
            ]
            for (code, json) in records {
                try Data(json.utf8).write(to: src.appendingPathComponent("additives/\(code).json"))
            }
        }

        /// build → sign (alice) → sign (bob) → verify; returns the pack's path.
        func publish(_ name: String, diffFrom: String? = nil) throws -> String {
            let out = path(name)
            var build = ["pack", "build", "--source", path("src"), "--update", out]
            if let diffFrom { build += ["--diff-from", diffFrom] }
            for args in [build, ["pack", "sign", out, "--key", path("alice.key")], ["pack", "sign", out, "--key", path("bob.key")],
                         ["pack", "verify", out] + trusted] {
                let run = try scan.run(args)
                #expect(run.status == 0, "scan \(args.joined(separator: " ")): \(run.stderr)")
            }
            return out
        }

        /// The installed pack version and E330's plain line, as `scan code` shows them.
        func installed(sourceLocation: SourceLocation = #_sourceLocation) throws -> Installed {
            let run = try scan.run(["code", "E330", "--region", "EU", "--format", "json"])
            #expect(run.status == 0, "scan code after apply: \(run.stderr)", sourceLocation: sourceLocation)
            let report = try #require(run.jsonLines().first, sourceLocation: sourceLocation)
            let risk = report.additives.first?["risk"] as? String ?? ""
            return Installed(report["packVersion"] as? String ?? "", risk)
        }
    }

    struct Installed: Equatable, CustomStringConvertible {
        var version: String
        var citric: String
        init(_ version: String, _ citric: String) {
            self.version = version
            self.citric = citric
        }
        var description: String { "\(version): \(citric)" }
    }

    static let old = Installed("10.0.0", oldLine)
    static let new = Installed("10.1.0", newLine)
    static let oldLine = "The sour acid in lemons."
    static let newLine = "The sour acid in lemons. It is made in vats."

    /// Publishes 10.0.0 (full), applies it, and publishes the 10.1.0 delta; returns the delta's path.
    static func prepared(_ p: Publisher) throws -> String {
        let full = try p.publish("ecodex-10.0.0.pack")
        let applied = try p.scan.run(["pack", "apply", full] + p.trusted)
        #expect(applied.status == 0, "\(applied.stderr)")
        try p.writeSource(version: "10.1.0", citric: newLine)
        return try p.publish("ecodex-10.1.0.pack", diffFrom: full)
    }

    @Test func roundTripBuildSignApplyScanRollback() throws {
        let p = try Publisher()
        let delta = try Self.prepared(p)
        #expect(try p.installed() == Self.old)

        let apply = try p.scan.run(["pack", "apply", delta] + p.trusted)
        #expect(apply.status == 0, "\(apply.stderr)")
        #expect(apply.stdout.contains("Installed pack 10.1.0"))
        #expect(try p.installed() == Self.new)

        let text = try p.scan.run(["text", "Water, citric acid", "--region", "EU"])
        #expect(text.stdout.contains("pack 10.1.0"), "the footer shows the versions: \(text.stdout)")

        let status = try p.scan.run(["pack", "status"])
        #expect(status.status == 0)
        #expect(status.stdout.contains("Data version data-10.1.0 · pack 10.1.0"))
        #expect(status.stdout.contains("EU 10.1.0"))
        #expect(status.stdout.contains("signed by alice and bob"))
        #expect(status.stdout.contains("to pack 10.0.0"))

        let again = try p.scan.run(["pack", "apply", delta] + p.trusted)
        #expect(again.status == 15, "a replay is an update_error")

        let rollback = try p.scan.run(["pack", "rollback"])
        #expect(rollback.status == 0, "\(rollback.stderr)")
        #expect(try p.installed() == Self.old)
    }

    @Test func keysStayPrivateAndBadPacksAreUpdateErrors() throws {
        let p = try Publisher()
        let keyPath = p.path("alice.key")
        let mode = try #require(FileManager.default.attributesOfItem(atPath: keyPath)[.posixPermissions] as? NSNumber)
        #expect(mode.intValue & 0o777 == 0o600)
        let secret = try #require(try String(contentsOfFile: keyPath, encoding: .utf8).split(separator: "\"").dropLast().last)
        let full = try p.publish("ecodex-10.0.0.pack")

        // Signing again, verifying and keygen never print the private key.
        let sign = try p.scan.run(["pack", "sign", full, "--key", keyPath])
        let keygen = try p.scan.run(["pack", "keygen", "--owner", "carol", "--out", p.path("carol.key")])
        for run in [sign, keygen] { #expect(!run.stdout.contains(secret) && !run.stderr.contains(secret)) }
        #expect(try p.scan.run(["pack", "keygen", "--owner", "x", "--out", keyPath]).status == 15, "never overwrites a key")

        // Not trusted by the program's built-in keys, only by the test's trust file.
        #expect(try p.scan.run(["pack", "verify", full]).status == 15)

        var bytes = try Data(contentsOf: URL(fileURLWithPath: full))
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: p.path("tampered.pack")))
        _ = try p.installed()
        let storeBefore = try Data(contentsOf: p.scan.dataDir.appendingPathComponent("additives.sqlite"))
        let tampered2 = try p.scan.run(["pack", "apply", p.path("tampered.pack")] + p.trusted)
        #expect(tampered2.status == 15)
        #expect(tampered2.stderr.contains("update_error"))
        #expect(try Data(contentsOf: p.scan.dataDir.appendingPathComponent("additives.sqlite")) == storeBefore)
    }

    /// The process is killed at each step of apply; afterwards the store is
    /// wholly the old version or wholly the new one, and `scan` works.
    @Test(arguments: ["verified", "built", "synced", "previous-kept", "committed"])
    func killedAtAFaultPointLeavesOldOrNew(point: String) throws {
        let p = try Publisher()
        let delta = try Self.prepared(p)
        let killed = try p.scan.run(["pack", "apply", delta] + p.trusted, environment: ["ECODEX_PACK_FAULT": point])
        #expect(killed.status == 9, "killed by SIGKILL at \(point): \(killed.status) \(killed.stderr)")
        let now = try p.installed()
        let expected = point == "committed" ? Self.new : Self.old
        #expect(now == expected, "after a crash at \(point)")
        #expect(try p.scan.run(["store", "check"] + p.trusted).status == 0)
        // The update can still be applied (or is already in).
        let retry = try p.scan.run(["pack", "apply", delta] + p.trusted)
        #expect(retry.status == (point == "committed" ? 15 : 0), "\(retry.stderr)")
        #expect(try p.installed() == Self.new)
    }

    /// SIGKILL from another process (as `kill -9` would) while the apply is held at each step,
    /// the delta's check included: the store is wholly old or wholly new, and `scan` works.
    @Test(arguments: ["verified", "delta-checked", "built", "synced", "previous-kept", "committed"])
    func killedFromOutsideAtEachStepLeavesOldOrNew(point: String) throws {
        let p = try Publisher()
        let delta = try Self.prepared(p)
        let held = PausePoint(point, in: p.scan.dataDir)
        let apply = try StoreHardeningTests.spawn(p.scan, ["pack", "apply", delta] + p.trusted, environment: held.environment)
        let reached = held.waitUntilReached(by: apply)
        kill(apply.processIdentifier, SIGKILL)
        apply.waitUntilExit()
        #expect(reached, "the apply reached \(point)")
        #expect(apply.terminationReason == .uncaughtSignal && apply.terminationStatus == SIGKILL)
        let now = try p.installed()
        #expect(now == (point == "committed" ? Self.new : Self.old), "after a kill at \(point): \(now)")
        #expect(try p.scan.run(["store", "check"] + p.trusted).status == 0)
    }

    /// Offline, `scan update` remembers the update and says so.
    @Test func offlineUpdateIsRemembered() throws {
        let p = try Publisher()
        let delta = try Self.prepared(p)
        let port = Int.random(in: 20000...60000)
        let url = "http://127.0.0.1:\(port)/\(URL(fileURLWithPath: delta).lastPathComponent)"

        let offline = try p.scan.run(["update", url] + p.trusted)
        #expect(offline.status == 14, "network_error: \(offline.stderr)")
        let status = try p.scan.run(["pack", "status"])
        #expect(status.stdout.contains("Pending updates: \(url)"))
        #expect(try p.installed().version == "10.0.0")
    }

    /// The pending update is applied by a later `scan update` once a server answers (an
    /// in-process server: a server child once kept other tests' pipes open).
    @Test func offlineUpdateIsAppliedOnALaterRunOnceOnline() throws {
        let p = try Publisher()
        let delta = try Self.prepared(p)
        let port = UInt16.random(in: 20000...60000)
        let name = URL(fileURLWithPath: delta).lastPathComponent
        let url = "http://127.0.0.1:\(port)/\(name)"
        #expect(try p.scan.run(["update", url] + p.trusted).status == 14)

        // The network comes back: a server for the pack on the same address.
        let server = try ProductTestServer(routes: ["/" + name: [.bytes(try Data(contentsOf: URL(fileURLWithPath: delta)))]], port: port)
        defer { server.stop() }
        let later = try p.scan.run(["update"] + p.trusted)
        #expect(later.status == 0, "\(later.stderr)")
        #expect(later.stdout.contains("Installed pack 10.1.0"))
        #expect(try p.installed() == Self.new)
        #expect(try p.scan.run(["pack", "status"]).stdout.contains("Pending updates: none"))
    }
}
