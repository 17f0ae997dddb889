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
        var env = p.env
        env["ECODEX_DATA_DIR"] = home.appendingPathComponent("share/ecodex").path
        env["ECODEX_CONFIG"] = home.appendingPathComponent("config/ecodex/preferences.conf").path
        let full = try p.publish("ecodex-10.0.0.pack")
        let products = p.scan.dataDir.appendingPathComponent("p.jsonl")
        try Data(StoreHardeningTests.export(prefix: "400777", count: 10).utf8).write(to: products)
        for args in [["prefs", "set", "diet", "vegan"], ["prefs", "set", "avoid", "sulphites"], ["text", "water, E102"],
                     ["code", "E330"], ["products", "import", products.path], ["pack", "apply", full], ["pack", "rollback"],
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

}
