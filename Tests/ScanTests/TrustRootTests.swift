import Foundation
import Testing

/// The trust root in force is the keys built into `scan`, or a publisher's `--trusted FILE` for
/// one command; installed data stays answerable to it, and a rebuild strands no client.
@Suite struct TrustRootTests {
    typealias Publisher = PackCommandTests.Publisher

    /// A trust file with one key and a threshold of one, and a full 10.1.0 pack signed by it
    /// that changes E330's plain line; returns the pack's path.
    static func forged(_ p: Publisher) throws -> String {
        let keygen = try p.scan.run(["pack", "keygen", "--owner", "mallory", "--out", p.path("mallory.key"),
                                     "--trust", p.path("evil-trust.json")])
        #expect(keygen.status == 0, "\(keygen.stderr)")
        let text = try String(contentsOfFile: p.path("evil-trust.json"), encoding: .utf8)
        let one = text.replacingOccurrences(of: #""required_signatures": 2"#, with: #""required_signatures": 1"#)
        #expect(one != text)
        try Data(one.utf8).write(to: URL(fileURLWithPath: p.path("evil-trust.json")))
        try p.writeSource(version: "10.1.0", citric: "Forged.")
        let out = p.path("evil.pack")
        for args in [["pack", "build", "--source", p.path("src"), "--update", out], ["pack", "sign", out, "--key", p.path("mallory.key")]] {
            let run = try p.scan.run(args)
            #expect(run.status == 0, "scan \(args.joined(separator: " ")): \(run.stderr)")
        }
        return out
    }

    /// The warnings of `scan code E330` in JSON.
    static func warnings(_ p: Publisher) throws -> [String] {
        let run = try p.scan.run(["code", "E330", "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        return warningMessages(run.jsonLines().first?["warnings"]) ?? []
    }

    /// A one-time trust override used to stay in force: the forged pack installed, every later
    /// scan used it unmarked, `store check` said healthy, `pack status` showed the forger as
    /// signer, and the genuine 10.1.0 was refused as already installed.
    @Test func aOneTimeTrustOverrideDoesNotStayInForce() throws {
        let p = try Publisher()
        let genuine = try p.publish("ecodex-10.0.0.pack")
        let evil = try Self.forged(p)
        try p.writeSource(version: "10.1.0", citric: PackCommandTests.newLine)
        let next = try p.publish("ecodex-10.1.0.pack")
        #expect(try p.scan.run(["pack", "apply", genuine] + p.trusted).status == 0)

        // No environment variable replaces the trust root.
        let viaEnvironment = try p.scan.run(["pack", "apply", evil], environment: ["ECODEX_TRUSTED_KEYS": p.path("evil-trust.json")])
        #expect(viaEnvironment.status == 15, "\(viaEnvironment.stdout)")
        #expect(try p.installed() == PackCommandTests.old)

        // The explicit flag installs it for that command; what it installed stays marked.
        let viaFlag = try p.scan.run(["pack", "apply", evil, "--trusted", p.path("evil-trust.json")])
        #expect(viaFlag.status == 0, "\(viaFlag.stderr)")
        #expect(try p.installed().citric == "Forged.")
        #expect(try Self.warnings(p).contains { $0.contains("not signed by the keys built into Ecodex") })
        let text = try p.scan.run(["text", "Water, citric acid"])
        #expect(text.stdout.contains("not signed by the keys built into Ecodex"), "\(text.stdout)")
        let check = try p.scan.run(["store", "check"])
        #expect(check.status == 15, "\(check.stdout)")
        #expect(check.stderr.contains("installed with keys not built into scan"), "\(check.stderr)")
        let status = try p.scan.run(["pack", "status"])
        #expect(status.stdout.contains("signed by mallory (keys not built into scan)"), "\(status.stdout)")
        #expect(status.stdout.contains("Verified: no"), "\(status.stdout)")
        let json = try #require(try p.scan.run(["pack", "status", "--format", "json"]).jsonLines().first)
        #expect(json["verified"] as? Bool == false)

        // It raised no record the publisher's keys hold the folder to: their 10.1.0 installs.
        let replaced = try p.scan.run(["pack", "apply", next] + p.trusted)
        #expect(replaced.status == 0, "the genuine 10.1.0 must replace the forged one: \(replaced.stderr)")
        #expect(try p.installed() == PackCommandTests.new)
        #expect(try p.scan.run(["store", "check"] + p.trusted).status == 0)

        // A rebuild puts back data the built-in keys answer for.
        #expect(try p.scan.run(["store", "rebuild"]).status == 0)
        #expect(try p.scan.run(["store", "check"]).status == 0)
        #expect(try Self.warnings(p).allSatisfy { !$0.contains("not signed by the keys built into") })
    }

    /// After `scan store rebuild` the client used to be stuck at the bundled pack: the first
    /// step of the chain back up (10.0.0) is older than the 10.2.0 it had, and was refused.
    @Test func aRebuildDoesNotStrandAClientBelowItsNewestVersion() throws {
        let p = try Publisher()
        let folder = p.root.appendingPathComponent("dist")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let full = try p.publish("dist/ecodex-10.0.0.pack")
        try p.writeSource(version: "10.1.0", citric: PackCommandTests.newLine)
        let full11 = try p.publish("ecodex-10.1.0-full.pack")
        _ = try p.publish("dist/ecodex-10.1.0.pack", diffFrom: full)
        try p.writeSource(version: "10.2.0", citric: "The sour acid in lemons, third edition.")
        let full12 = try p.publish("ecodex-10.2.0-full.pack")
        _ = try p.publish("dist/ecodex-10.2.0.pack", diffFrom: full11)

        let first = try p.scan.run(["update", folder.path] + p.trusted)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try p.installed().version == "10.2.0")
        #expect(try p.scan.run(["store", "rebuild"]).status == 0)

        let back = try p.scan.run(["update", folder.path] + p.trusted)
        #expect(back.status == 0, "the chain 10.0.0 → 10.1.0 → 10.2.0 leads back: \(back.stderr)")
        #expect(try p.installed() == Installed("10.2.0", "The sour acid in lemons, third edition."))

        // One older pack on its own is still refused; the same version as before installs.
        #expect(try p.scan.run(["store", "rebuild"]).status == 0)
        let older = try p.scan.run(["pack", "apply", full] + p.trusted)
        #expect(older.status == 15)
        #expect(older.stderr.contains("version 10.2.0 was installed on this computer before"), "\(older.stderr)")
        let same = try p.scan.run(["pack", "apply", full12] + p.trusted)
        #expect(same.status == 0, "\(same.stderr)")
        #expect(try p.installed().version == "10.2.0")
    }

    typealias Installed = PackCommandTests.Installed
}
