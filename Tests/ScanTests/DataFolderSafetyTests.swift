import Foundation
import Testing

/// The data folder and the config folder through the built `scan`: whose they are, who
/// may write them, and what `scan` says and does when they are read-only.
@Suite struct DataFolderSafetyTests {
    /// Runs `scan` with umask 000: every mode `scan` sets must hold without the umask's help.
    static let umask000 = ["/bin/sh", "-c", "umask 000; exec \"$0\" \"$@\""]

    static func mode(_ path: String) -> Int {
        var info = stat()
        return lstat(path, &info) == 0 ? Int(info.st_mode & 0o7777) : -1
    }

    // MARK: - Private files whatever the umask

    @Test func everyFileAndFolderScanMakesIsPrivateUnderUmask000() throws {
        let p = try PackCommandTests.Publisher()
        let home = p.scan.dataDir.appendingPathComponent("home")
        var env: [String: String] = [:]
        env["ECODEX_DATA_DIR"] = home.appendingPathComponent("share/ecodex").path
        env["ECODEX_CONFIG"] = home.appendingPathComponent("config/ecodex/preferences.conf").path
        let full = try p.publish("ecodex-10.0.0.pack")
        let products = p.scan.dataDir.appendingPathComponent("p.jsonl")
        try Data(StoreHardeningTests.export(prefix: "400777", count: 10).utf8).write(to: products)
        for args in [["prefs", "set", "diet", "vegan"], ["prefs", "set", "avoid", "sulphites"], ["text", "water, E102"],
                     ["code", "E330"], ["products", "import", products.path], ["pack", "apply", full] + p.trusted, ["pack", "rollback"],
                     ["store", "rebuild"], ["history"]] {
            let run = try p.scan.run(args, environment: env, wrapper: Self.umask000)
            #expect(run.status == 0, "scan \(args.joined(separator: " ")): \(run.stderr)")
        }
        let made = try FileManager.default.subpathsOfDirectory(atPath: home.path)
        #expect(made.contains("config/ecodex/preferences.conf"))
        #expect(made.contains("share/ecodex/user.sqlite"))
        for item in made + [""] {
            let path = home.appendingPathComponent(item).path
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            #expect(Self.mode(path) == (isFolder.boolValue ? 0o700 : 0o600), "\(item.isEmpty ? "home" : item) is \(String(Self.mode(path), radix: 8))")
        }
    }

    @Test func savingPreferencesMakesAnOlderSharedFilePrivate() throws {
        let scan = ScanBinary()
        let conf = scan.dataDir.appendingPathComponent("preferences.conf")
        try Data("diet = vegan\n".utf8).write(to: conf)
        chmod(conf.path, 0o666)
        let run = try scan.run(["prefs", "set", "avoid", "sulphites"], wrapper: Self.umask000)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.mode(conf.path) == 0o600)
        #expect(try String(contentsOf: conf, encoding: .utf8).contains("diet = vegan"))
    }

    // MARK: - A data folder another user could change

    @Test func aDataFolderAnotherUserCouldChangeIsRefused() throws {
        let scan = ScanBinary()
        // The ordinary data folder below /tmp (sticky, root's) is used as before.
        let first = try scan.run(["code", "E330"])
        #expect(first.status == 0, "\(first.stderr)")
        let nobody: uid_t = 65534
        // Another user's folder anyone may write, reached through a symlink: that user could
        // put their own store there (the copy below stands in for it).
        let shared = scan.dataDir.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: false)
        try FileManager.default.copyItem(at: scan.dataDir.appendingPathComponent("additives.sqlite"),
                                         to: shared.appendingPathComponent("additives.sqlite"))
        chmod(shared.path, 0o777)
        chown(shared.path, nobody, nobody)
        let link = scan.dataDir.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: shared)
        for args in [["text", "water, E102"], ["store", "check"], ["history"], ["code", "E330", "--format", "json"]] {
            let run = try scan.run(args, environment: ["ECODEX_DATA_DIR": link.path])
            #expect(run.status == 13, "scan \(args.joined(separator: " ")): \(run.stdout) \(run.stderr)")
            #expect((run.stderr + run.stdout).contains("\(shared.path): another user owns it"), "\(run.stderr)")
        }
        #expect(try scan.run(["store", "check"], environment: ["ECODEX_DATA_DIR": link.path]).stdout.isEmpty)

        // The user's own folder that others may write: refused, and what to fix is said.
        let open = scan.dataDir.appendingPathComponent("open")
        try FileManager.default.createDirectory(at: open, withIntermediateDirectories: false)
        chmod(open.path, 0o777)
        let writable = try scan.run(["code", "E330"], environment: ["ECODEX_DATA_DIR": open.path])
        #expect(writable.status == 13)
        #expect(writable.stderr.contains("other users can write there. Remove their write access (chmod go-w)"), "\(writable.stderr)")
        // ... and below a folder others may write that is not sticky.
        let inside = try scan.run(["code", "E330"], environment: ["ECODEX_DATA_DIR": open.appendingPathComponent("ecodex").path])
        #expect(inside.status == 13 && inside.stderr.contains("\(open.path): other users can write"), "\(inside.stderr)")

        // A file in the user's folder that another user owns.
        let mine = scan.dataDir.appendingPathComponent("mine")
        #expect(try scan.run(["code", "E330"], environment: ["ECODEX_DATA_DIR": mine.path]).status == 0)
        let store = mine.appendingPathComponent("additives.sqlite")
        chown(store.path, nobody, nobody)
        let owned = try scan.run(["code", "E330"], environment: ["ECODEX_DATA_DIR": mine.path])
        #expect(owned.status == 13 && owned.stderr.contains("\(store.path): another user owns it"), "\(owned.stderr)")

        // A sticky folder of root's, like /tmp, may be writable by all above the data folder.
        let sticky = scan.dataDir.appendingPathComponent("sticky")
        try FileManager.default.createDirectory(at: sticky, withIntermediateDirectories: false)
        chmod(sticky.path, 0o1777)
        let below = try scan.run(["code", "E330"], environment: ["ECODEX_DATA_DIR": sticky.appendingPathComponent("ecodex").path])
        #expect(below.status == 0, "\(below.stderr)")
        let itself = try scan.run(["code", "E330"], environment: ["ECODEX_DATA_DIR": sticky.path])
        #expect(itself.status == 13, "the data folder itself must not be writable by others, sticky or not")
    }

    // MARK: - A read-only data folder

    /// Runs `scan` with its data folder mounted read-only (in its own mount namespace), which
    /// stops root too; exits 99 when the mount cannot be made here.
    static let readOnlyMount = ["/usr/bin/unshare", "-m", "--", "/bin/sh", "-c", """
        d="$ECODEX_DATA_DIR"; mount --bind "$d" "$d" && mount -o remount,bind,ro "$d" "$d" || exit 99
        touch "$d/probe" 2>/dev/null && exit 99; exec "$0" "$@"
        """]

    @Test func aReadOnlyDataFolderIsSaidSoAndStillWorks() throws {
        let scan = ScanBinary()
        let saved = try scan.run(["text", "water, E102"])
        #expect(saved.status == 0, "\(saved.stderr)")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return }
        let before = try FileManager.default.contentsOfDirectory(atPath: scan.dataDir.path).sorted()

        let result = try scan.run(["text", "sugar, E330", "--format", "json"], wrapper: Self.readOnlyMount)
        guard result.status != 99 else { return }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.jsonLines().first?.codes == ["E330"])
        #expect(result.stderr.contains("this result was not saved to history") && result.stderr.contains("is read-only"), "\(result.stderr)")
        // -q keeps the note off standard error; the result is the same.
        let quiet = try scan.run(["text", "sugar, E330", "--format", "json", "-q"], wrapper: Self.readOnlyMount)
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
        #expect(quiet.jsonLines().first?.codes == ["E330"])

        let history = try scan.run(["history"], wrapper: Self.readOnlyMount)
        #expect(history.status == 0, "\(history.stderr)")
        #expect(history.stdout.contains("E102") && !history.stdout.contains("E330"), "\(history.stdout)")
        let show = try scan.run(["history", "show", "1"], wrapper: Self.readOnlyMount)
        #expect(show.status == 0 && show.stdout.contains("E102"), "\(show.stderr)")

        let check = try scan.run(["store", "check"], wrapper: Self.readOnlyMount)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("healthy") && check.stdout.contains("is read-only"), "\(check.stdout)")

        let clear = try scan.run(["history", "clear", "--yes"], wrapper: Self.readOnlyMount)
        #expect(clear.status == 13)
        #expect(clear.stderr.contains("is read-only"), "\(clear.stderr)")
        for run in [result, history, show, check, clear] {
            #expect(!(run.stdout + run.stderr).contains("damaged"), "\(run.stdout) \(run.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scan.dataDir.path).sorted() == before)
    }
}
