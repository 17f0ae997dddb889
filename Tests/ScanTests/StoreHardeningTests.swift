import Foundation
import Testing

/// Issue 16, "Updates and the store": each test reproduces one finding through the
/// built `scan` and checks it stays fixed.
@Suite struct StoreHardeningTests {
    typealias Publisher = PackCommandTests.Publisher

    // MARK: - Rollback protection survives a rebuild or a deleted store

    @Test func rebuildOrDeletedStoreKeepsRollbackProtection() throws {
        let p = try Publisher()
        let older = try p.publish("ecodex-10.0.0.pack")
        try p.writeSource(version: "10.1.0", citric: PackCommandTests.newLine)
        let newer = try p.publish("ecodex-10.1.0.pack")
        for pack in [older, newer] {
            let run = try p.scan.run(["pack", "apply", pack] + p.trusted)
            #expect(run.status == 0, "\(run.stderr)")
        }
        let store = p.scan.dataDir.appendingPathComponent("additives.sqlite")
        for reset in ["rebuild", "delete"] {
            if reset == "rebuild" {
                #expect(try p.scan.run(["store", "rebuild"]).status == 0)
            } else {
                try FileManager.default.removeItem(at: store)
            }
            let replay = try p.scan.run(["pack", "apply", older] + p.trusted)
            #expect(replay.status == 15, "after a store \(reset), 10.0.0 must not install over a client that had 10.1.0")
            #expect(replay.stderr.contains("version 10.1.0 was installed on this computer before"), "\(replay.stderr)")
            #expect(try p.installed().version != "10.0.0")
        }

        // The explicit repair path still checks signatures, and is said and logged.
        var tampered = try Data(contentsOf: URL(fileURLWithPath: older))
        tampered[tampered.count - 10] ^= 0x01
        try tampered.write(to: URL(fileURLWithPath: p.path("tampered.pack")))
        #expect(try p.scan.run(["pack", "apply", p.path("tampered.pack"), "--allow-downgrade"] + p.trusted).status == 15)
        let forced = try p.scan.run(["pack", "apply", older, "--allow-downgrade"] + p.trusted)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(forced.stderr.contains("--allow-downgrade"))
        #expect(try p.installed() == PackCommandTests.old)
        let log = try String(contentsOf: p.scan.dataDir.appendingPathComponent("pack-updates.log"), encoding: .utf8)
        #expect(log.contains(#""downgrade_below":"10.1.0""#))
        // The record is not lowered by the repair: a plain replay is still refused.
        #expect(try p.scan.run(["store", "rebuild"]).status == 0)
        #expect(try p.scan.run(["pack", "apply", older] + p.trusted).status == 15)
    }

    // MARK: - Every writer of the store takes the same lock

    /// Races `pack apply` of a delta against `store rebuild` and `pack rollback`. The apply stops
    /// after it checked the delta against the installed records (the window a rebuild used to
    /// slip into); the other writer starts then, and the apply goes on only once the other is
    /// waiting for the store's lock, or has finished without it. The result must be one whole
    /// version: never the delta's version over the rebuilt data.
    @Test(arguments: [["store", "rebuild"], ["pack", "rollback"]])
    func writersOfTheStoreTakeTurns(other arguments: [String]) throws {
        let p = try Publisher()
        let delta = try PackCommandTests.prepared(p)
        let scan = p.scan
        let checked = PausePoint("delta-checked", in: scan.dataDir)
        let apply = try Self.spawn(scan, ["pack", "apply", delta] + p.trusted, environment: checked.environment)
        defer { checked.open(); apply.waitUntilExit() }
        #expect(checked.waitUntilReached(by: apply), "the apply stopped after checking the delta")
        let waiting = PausePoint("lock-wait", in: scan.dataDir)
        let other = try Self.spawn(scan, arguments, environment: waiting.environment)
        let tookTurns = waiting.waitUntilReached(by: other)
        waiting.open()
        checked.open()
        apply.waitUntilExit()
        other.waitUntilExit()
        #expect(tookTurns, "scan \(arguments.joined(separator: " ")) did not wait for the apply's lock")
        #expect(apply.terminationStatus == 0 && other.terminationStatus == 0, "\(apply.terminationStatus) \(other.terminationStatus)")
        let state = try Self.storeState(scan)
        let whole = (state.version == "10.0.0" && state.records == 3 && state.citric == PackCommandTests.oldLine)
            || (state.version == "10.1.0" && state.records == 3 && state.citric == PackCommandTests.newLine)
            || (!state.version.hasPrefix("10.") && state.records > 3
                && state.citric != PackCommandTests.oldLine && state.citric != PackCommandTests.newLine)
        #expect(whole, "a mixed store: \(state)")
        #expect(try scan.run(["store", "check"] + p.trusted).status == 0)
    }

    struct StoreState: CustomStringConvertible {
        var version: String
        var records: Int
        var citric: String
        var description: String { "pack \(version), \(records) records, E330: \(citric)" }
    }

    /// The installed pack version and record count (`scan store status`) and E330's plain line.
    static func storeState(_ scan: ScanBinary) throws -> StoreState {
        let status = try scan.run(["store", "status"])
        let version = status.stdout.split(separator: "\n").first { $0.hasPrefix("Data version") }
            .flatMap { $0.components(separatedBy: " · pack ").dropFirst().first?.components(separatedBy: " ").first } ?? "?"
        let records = status.stdout.split(separator: "\n").first { $0.hasPrefix("Additives: ") }
            .flatMap { Int($0.dropFirst("Additives: ".count)) } ?? -1
        let code = try scan.run(["code", "E330", "--format", "json"])
        let citric = code.jsonLines().first?.additives.first?["risk"] as? String ?? "?"
        return StoreState(version: version, records: records, citric: citric)
    }

    /// Starts `scan` without waiting for it; output is discarded.
    static func spawn(_ scan: ScanBinary, _ arguments: [String], environment extra: [String: String] = [:],
                      stdin: Pipe? = nil) throws -> Process {
        let process = Process()
        process.executableURL = ScanBinary.executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["ECODEX_DATA_DIR"] = scan.dataDir.path
        env["ECODEX_CONFIG"] = scan.dataDir.appendingPathComponent("preferences.conf").path
        env["NO_COLOR"] = "1"
        for (k, v) in extra { env[k] = v }
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = stdin ?? FileHandle.nullDevice
        try process.run()
        return process
    }

    // MARK: - `store check` finds what a lookup trips over

    /// Zeroes bytes inside one record's compressed JSON: the pages stay well-formed, so
    /// SQLite's integrity check says "ok" while `scan code` fails on the record's checksum.
    @Test func checkFindsADamagedRecord() throws {
        let scan = ScanBinary()
        #expect(try scan.run(["code", "E340(ii)"]).status == 0)
        let url = scan.dataDir.appendingPathComponent("additives.sqlite")
        var bytes = try Data(contentsOf: url)
        // The additives row: its code, its number (2 bytes), its parent code. The record is the
        // row's zlib stream, which starts 0x78 0xF9 (level 9, preset dictionary): no UTF-8 text
        // holds 0xF9, so the first such pair after the code is the record's start.
        let code = Data("E340(ii)".utf8), parent = Data("E340".utf8)
        var row: Range<Data.Index>?
        var from = bytes.startIndex
        while row == nil, let r = bytes.range(of: code, in: from..<bytes.endIndex) {
            if bytes[(r.upperBound + 2)...].starts(with: parent) { row = r }
            from = r.upperBound
        }
        let found = try #require(row, "the additives row of E340(ii)")
        let record = try #require(bytes.range(of: Data([0x78, 0xF9]), in: found.upperBound..<bytes.endIndex))
        bytes.replaceSubrange((record.lowerBound + 40)..<(record.lowerBound + 140), with: Data(count: 100))
        try bytes.write(to: url)

        let lookup = try scan.run(["code", "E340(ii)"])
        #expect(lookup.status == 13, "the damaged record cannot be read: \(lookup.stderr)")
        let check = try scan.run(["store", "check"])
        #expect(check.status == 13, "check must agree with the lookup: \(check.stdout)")
        #expect(check.stderr.contains("scan store rebuild"))
        #expect(try scan.run(["store", "rebuild"]).status == 0)
        #expect(try scan.run(["store", "check"]).status == 0)
        #expect(try scan.run(["code", "E340(ii)"]).status == 0)
    }

    // MARK: - Product imports are all or nothing, one at a time, durable

    /// An Open Food Facts export of `count` products with valid EAN-13 barcodes starting `prefix`.
    static func export(prefix: String, count: Int, from start: Int = 0) -> String {
        (start..<(start + count)).map { #"{"code":"\#(ean13(prefix, $0))","ingredients_text":"Water, citric acid"}"# }
            .joined(separator: "\n") + "\n"
    }

    /// The EAN-13 with 12 digits `prefix` + `n` (zero-padded) and its check digit.
    static func ean13(_ prefix: String, _ n: Int) -> String {
        let body = prefix + String(repeating: "0", count: 12 - prefix.count - String(n).count) + String(n)
        let sum = body.reversed().enumerated().reduce(0) { $0 + Int(String($1.element))! * ($1.offset % 2 == 0 ? 3 : 1) }
        return body + String((10 - sum % 10) % 10)
    }

    static func has(_ scan: ScanBinary, _ barcode: String) throws -> Bool {
        try scan.run(["barcode", barcode, "--format", "json"]).status == 0
    }

    @Test func importsAtOnceTakeTurns() throws {
        let scan = ScanBinary()
        let a = scan.dataDir.appendingPathComponent("a.jsonl"), b = scan.dataDir.appendingPathComponent("b.jsonl")
        try Data(Self.export(prefix: "400111", count: 60_000).utf8).write(to: a)
        try Data(Self.export(prefix: "400222", count: 60_000).utf8).write(to: b)

        // Two replacing imports: both succeed and the list is one of them, whole.
        var runs = try [a, b].map { try Self.spawn(scan, ["products", "import", $0.path]) }
        for r in runs { r.waitUntilExit() }
        #expect(runs.map(\.terminationStatus) == [0, 0])
        let hasA = try Self.has(scan, Self.ean13("400111", 59_999)), hasB = try Self.has(scan, Self.ean13("400222", 59_999))
        #expect(hasA != hasB, "exactly one list: A \(hasA), B \(hasB)")

        // Two adding imports: both land.
        runs = try [a, b].map { try Self.spawn(scan, ["products", "import", $0.path, "--add"]) }
        for r in runs { r.waitUntilExit() }
        #expect(runs.map(\.terminationStatus) == [0, 0])
        #expect(try Self.has(scan, Self.ean13("400111", 0)) && Self.has(scan, Self.ean13("400222", 0)))
    }

    /// An `--add` import killed after it committed a batch of 10,000 lines to its build file
    /// leaves no row of them: it is stopped at that point and killed there.
    @Test func aKilledAddImportLeavesTheListAsItWas() throws {
        let scan = ScanBinary()
        _ = try importProducts(scan, Self.export(prefix: "400333", count: 3))
        let file = scan.dataDir.appendingPathComponent("big.jsonl")
        try Data(Self.export(prefix: "400444", count: 30_000).utf8).write(to: file)
        let committed = PausePoint("import-batch-committed", in: scan.dataDir)
        let importing = try Self.spawn(scan, ["products", "import", file.path, "--add"], environment: committed.environment)
        let reached = committed.waitUntilReached(by: importing)
        kill(importing.processIdentifier, SIGKILL)
        importing.waitUntilExit()
        #expect(reached, "the import committed a batch before it was killed")
        #expect(importing.terminationStatus == SIGKILL)
        #expect(try !Self.has(scan, Self.ean13("400444", 0)), "a row of the killed import is in the list")
        #expect(try Self.has(scan, Self.ean13("400333", 2)), "the list before the import is intact")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scan.dataDir.path).filter { $0.contains("importing") }
        _ = try importProducts(scan, Self.export(prefix: "400555", count: 2), name: "again.jsonl")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scan.dataDir.path).filter { $0.contains("importing") }.isEmpty,
                "the next import clears what the killed one left: \(leftovers)")
    }

    /// The new list is flushed to disk before it is renamed into place, so a power cut
    /// cannot leave a renamed but empty file.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace")))
    func importIsFlushedBeforeItIsSwappedIn() throws {
        let scan = ScanBinary()
        let file = scan.dataDir.appendingPathComponent("p.jsonl")
        try Data(Self.export(prefix: "400666", count: 100).utf8).write(to: file)
        let trace = scan.dataDir.appendingPathComponent("trace.txt").path
        let run = try runWrapped(scan, ["/usr/bin/strace", "-f", "-e", "trace=fsync,fdatasync,rename,renameat,renameat2", "-o", trace],
                                 ["products", "import", file.path])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        let swap = try #require(lines.firstIndex { $0.contains("rename") && $0.contains("products.sqlite\"") && !$0.contains("= -1") },
                                "the list is renamed into place")
        #expect(lines[..<swap].contains { $0.contains("fsync(") || $0.contains("fdatasync(") }, "no flush before the rename")
    }

    // MARK: - History under concurrency

    /// The issue's case: 20 `scan` processes on a fresh data folder (50 writers at once are
    /// tested in the library, `UserStoreTests.fiftyWritersAtOnceLoseNothing`, where it is fast).
    @Test func historyKeepsEveryScanOfTwentyProcessesAtOnce() throws {
        let scan = ScanBinary()
        #expect(try scan.run(["store", "status"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: scan.dataDir.appendingPathComponent("user.sqlite").path),
                "history starts fresh, so the 20 race to create it")
        let runs = try (0..<20).map { _ in try Self.spawn(scan, ["text", "E330"]) }
        for r in runs { r.waitUntilExit() }
        #expect(runs.allSatisfy { $0.terminationStatus == 0 })
        let history = try scan.run(["history", "--limit", "1000"])
        let entries = history.stdout.split(separator: "\n").filter { $0.hasPrefix("#") }.count
        print("historyKeepsEveryScanOfTwentyProcessesAtOnce: \(entries) of 20 saved")
        #expect(entries == 20)
        let clear = try scan.run(["history", "clear", "--yes"])
        #expect(clear.status == 0 && clear.stdout.contains("History cleared."))
        #expect(try scan.run(["history"]).stdout.contains("No scans yet."))
    }

    // MARK: - File modes

    @Test func dataFolderAndFilesAreTheUsersOwn() throws {
        let p = try Publisher()
        let folder = p.scan.dataDir.appendingPathComponent("fresh/ecodex")
        let env = ["ECODEX_DATA_DIR": folder.path]
        let full = try p.publish("ecodex-10.0.0.pack")
        let products = p.scan.dataDir.appendingPathComponent("p.jsonl")
        try Data(Self.export(prefix: "400777", count: 10).utf8).write(to: products)
        let port = Int.random(in: 20000...60000)
        for (args, expected) in [(["code", "E330"], Int32(0)), (["products", "import", products.path], 0),
                                 (["pack", "apply", full] + p.trusted, 0), (["pack", "rollback"], 0),
                                 (["update", "http://127.0.0.1:\(port)/x.pack"], 14), (["store", "rebuild"], 0),
                                 (["history"], 0)] {
            let run = try p.scan.run(args, environment: env)
            #expect(run.status == expected, "scan \(args.joined(separator: " ")): \(run.stderr)")
        }
        let mode = { (path: String) -> Int in
            ((try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? NSNumber)?.intValue ?? -1
        }
        #expect(mode(folder.path) & 0o777 == 0o700)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        for name in ["additives.sqlite", "user.sqlite", "products.sqlite", "pack-updates.log",
                     "pending-update.json", "pack-state.json"] {
            #expect(names.contains(name), "\(name) was made by the runs above")
        }
        for name in names {
            #expect(mode(folder.appendingPathComponent(name).path) & 0o077 == 0, "\(name) is readable by others")
        }
    }

    // MARK: - Trust and freshness

    /// A forged file claiming version 99.0.0 used to be chosen before it was verified,
    /// and its refusal stopped the folder's valid chain.
    @Test func aForgedPackInAFolderDoesNotBlockTheValidChain() throws {
        let p = try Publisher()
        let delta = try PackCommandTests.prepared(p)
        let folder = p.root.appendingPathComponent("dist")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: delta), to: folder.appendingPathComponent("ecodex-10.1.0.pack"))
        let full = try String(contentsOfFile: p.path("ecodex-10.0.0.pack"), encoding: .utf8)
        let forged = full.replacingOccurrences(of: #""version":"10.0.0""#, with: #""version":"99.0.0""#)
        #expect(forged != full)
        try Data(forged.utf8).write(to: folder.appendingPathComponent("ecodex-99.0.0.pack"))

        let run = try p.scan.run(["pack", "apply", folder.path] + p.trusted)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Installed pack 10.1.0"))
        #expect(run.stderr.contains("ecodex-99.0.0.pack"), "the forged file is reported")
        #expect(try p.installed() == PackCommandTests.new)

        // A folder with nothing valid to apply is an update_error naming the refusal.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("ecodex-10.1.0.pack"))
        let only = try p.scan.run(["pack", "apply", folder.path] + p.trusted)
        #expect(only.status == 15, "\(only.stdout)")
        #expect(only.stderr.contains("signature"))
    }

    @Test func replacingTheTrustedKeysIsSaidAndLogged() throws {
        let p = try Publisher()
        let full = try p.publish("ecodex-10.0.0.pack")
        let run = try p.scan.run(["pack", "apply", full] + p.trusted)
        #expect(run.status == 0)
        #expect(run.stderr.contains("instead of the keys built into scan"), "\(run.stderr)")
        #expect(run.stderr.contains(p.path("trusted.json")))
        let log = try String(contentsOf: p.scan.dataDir.appendingPathComponent("pack-updates.log"), encoding: .utf8)
        #expect(log.contains(#""trusted_keys":"\#(p.path("trusted.json"))""#), "\(log)")
        let plain = try p.scan.run(["pack", "status"])
        #expect(!plain.stderr.contains("instead of the keys"), "the built-in keys need no note")
    }

    @Test func aTrustFileNoPackCanSatisfyIsRefused() throws {
        let p = try Publisher()
        let full = try p.publish("ecodex-10.0.0.pack")
        let text = try String(contentsOfFile: p.path("trusted.json"), encoding: .utf8)
        let greedy = text.replacingOccurrences(of: #""required_signatures": 2"#, with: #""required_signatures": 9223372036854775807"#)
        #expect(greedy != text)
        try Data(greedy.utf8).write(to: URL(fileURLWithPath: p.path("greedy.json")))
        let run = try p.scan.run(["pack", "verify", full, "--trusted", p.path("greedy.json")])
        #expect(run.status == 15)
        #expect(run.stderr.contains("no pack could meet that"), "\(run.stderr)")
    }

    @Test func packsCarryASignedExpiry() throws {
        let p = try Publisher()
        let full = try p.publish("ecodex-10.0.0.pack")
        let manifest = try #require(try String(contentsOfFile: full, encoding: .utf8).split(separator: "\n").first)
        #expect(manifest.contains(#""expires_at":""#))
        let verify = try p.scan.run(["pack", "verify", full] + p.trusted)
        #expect(verify.stdout.contains("expires 20"), "\(verify.stdout)")
        // Changing the expiry breaks the signatures.
        let later = try String(contentsOfFile: full, encoding: .utf8)
            .replacingOccurrences(of: #""expires_at":"20"#, with: #""expires_at":"29"#)
        try Data(later.utf8).write(to: URL(fileURLWithPath: p.path("later.pack")))
        #expect(try p.scan.run(["pack", "verify", p.path("later.pack")] + p.trusted).status == 15)
    }
}
