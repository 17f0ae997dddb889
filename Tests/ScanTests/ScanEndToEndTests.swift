import Foundation
import Testing

/// `scan` end to end: the built binary, the bundled store, real Tesseract.
@Suite struct ScanEndToEndTests {
    let scan = ScanBinary()

    @Test func candyLabelPhotoInEUFlagsBothSouthamptonColours() throws {
        let run = try scan.run([ScanBinary.path("samples/candy-label.jpg"), "--region", "EU", "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let r = try #require(run.jsonLines().first)
        #expect(r.codes.contains("E102") && r.codes.contains("E129"), "codes: \(r.codes)")
        #expect(r.badge("E102") == "red")
        #expect(r.badge("E129") == "red")
        let e102 = try #require(r.additives.first { $0["code"] as? String == "E102" })
        #expect((e102["statement"] as? String)?.contains("activity and attention in children") == true)
        #expect((r["summary"] as? [String: Int])?["flagged"] ?? 0 >= 2)
        #expect((r["preprocessing"] as? [String])?.isEmpty == false)
    }

    /// `ECODEX_DEBUG_DIR` shows what the reader did: the image Tesseract read and every word it
    /// read, with its line and confidence, so a parser rule can be tried on a real reading.
    @Test func debugFolderHoldsTheImageReadAndItsWords() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ecodex-debug-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // A second photo named alike in another folder keeps its own files.
        let other = dir.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: ScanBinary.path("samples/carmine-label.jpg"),
                                         toPath: other.appendingPathComponent("candy-label.jpg").path)
        let run = try scan.run([ScanBinary.path("samples/candy-label.jpg"), other.appendingPathComponent("candy-label.jpg").path,
                                "--format", "json"], environment: ["ECODEX_DEBUG_DIR": dir.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("samples-candy-label-0.png").path))
        let otherWords = try String(contentsOf: dir.appendingPathComponent("other-candy-label-words.tsv"), encoding: .utf8)
        #expect(!otherWords.contains("E102"), "the carmine label's words: \(otherWords)")
        let tsv = try String(contentsOf: dir.appendingPathComponent("samples-candy-label-words.tsv"), encoding: .utf8)
        let rows = tsv.split(separator: "\n").map { $0.split(separator: "\t", maxSplits: 2).map(String.init) }
        #expect(rows.count > 10 && rows.allSatisfy { $0.count == 3 && Int($0[0]) != nil && Int($0[1]) != nil })
        // The sample's `E102` is read surely; the words come in reading order, lines never going back.
        #expect(rows.contains { $0[2].hasPrefix("E102") && Int($0[1])! >= 80 }, "\(tsv)")
        let lines = rows.compactMap { Int($0[0]) }
        #expect(lines == lines.sorted())
    }

    /// The same label as an iPhone saves it (HEIC): the same additives and badges as the JPEG.
    @Test func heicPhotoReadsAsItsJPEG() throws {
        let jpeg = try scan.run([ScanBinary.path("samples/candy-label.jpg"), "--region", "EU", "--format", "json"])
        let heic = try scan.run([ScanBinary.path("samples/candy-label.heic"), "--region", "EU", "--format", "json"])
        #expect(heic.status == 0, "\(heic.stderr)")
        let a = try #require(jpeg.jsonLines().first), b = try #require(heic.jsonLines().first)
        #expect(Set(b.codes) == ["E102", "E129", "E330", "E903"], "codes: \(b.codes)")
        #expect(Set(b.codes) == Set(a.codes))
        #expect(b.badge("E102") == "red" && b.badge("E129") == "red")
    }

    /// Acceptance scenario 2: a US label that says "Carmine" with no code and no class word, vegan on.
    @Test func carmineWithoutACodeIsE120YellowForVegansInTheUS() throws {
        // The sample's list ends `natural flavor, Carmine.`: no `color:` before it (samples/make-samples.sh).
        let typed = try scan.run(["text", "INGREDIENTS: Sugar, water, modified corn starch, carmine, natural flavor.",
                                  "--region", "US", "--diet", "vegan", "--format", "json"])
        #expect(try #require(typed.jsonLines().first).badge("E120") == "yellow")
        let run = try scan.run([ScanBinary.path("samples/carmine-label.jpg"), "--region", "US", "--diet", "vegan", "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let r = try #require(run.jsonLines().first)
        #expect(r.badge("E120") == "yellow", "codes: \(r.codes)")
        let e120 = try #require(r.additives.first { $0["code"] as? String == "E120" })
        #expect((e120["reasons"] as? [String])?.first == "Not vegan.")
        #expect((e120["matchedText"] as? [String])?.contains { $0.lowercased() == "carmine" } == true)
    }

    /// Another language's additive name, accents folded, is a common word of a label language:
    /// Catalan `Carotè` (E160a) is Italian `carote`, carrots. Such names count only after a
    /// class word of their own function (packs/base/REVIEW.md section 10); before, every
    /// Italian list with carrots showed a colour.
    @Test(arguments: [
        ("Ingredienti: pomodori, carote, sedano, sale", "E160a"),
        ("Ingredientes: manitas de cerdo, sal", "E421"),
        ("Ingredienti: patate, terra, sale", "E553b"),
        ("Ingredients: water, ure, salt", "E927b"),
    ])
    func wordsOfALabelLanguageAreNotAnotherLanguagesAdditiveNames(text: String, code: String) throws {
        let run = try scan.run(["text", text, "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let codes = try #require(run.jsonLines().first).codes
        #expect(codes.isEmpty, "\(text): \(codes) (not \(code))")
    }

    @Test func aFoldedNameStillCountsAfterItsClassWord() throws {
        let run = try scan.run(["text", "Zucchero, colorante: carotè", "--format", "json"])
        #expect(try #require(run.jsonLines().first).codes == ["E160a"])
    }

    /// German and Dutch write the source and the additive as one word; with the shipped
    /// store, under a class word of its function (two of the 307 OFF texts wrote
    /// `Emulgator Sonnenblumenlecithine` and lost their lecithin).
    @Test(arguments: [
        ("Zucker, Kakaobutter, Emulgator Sonnenblumenlecithine, Salz", ["E322"]),
        ("Zucker, Geliermittel: Apfelpektin, Säuerungsmittel: Citronensäure", ["E440", "E330"]),
        ("Zucker, Sonnenblumenlecithine, Salz", []),
        ("Trägerstoff: Maltodextrin, Aroma", []),
    ])
    func aCompoundNameCountsUnderItsClassWord(text: String, codes: [String]) throws {
        let run = try scan.run(["text", text, "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try #require(run.jsonLines().first).codes == codes, "\(text)")
    }

    /// `--avoid sulfites`: a label that names sulphites but no additive gets a note; one whose
    /// card already says it (sulphur dioxide) gets none; the terminal shows the note too.
    @Test func aWatchedSensitivityNamedOnTheLabelIsNoted() throws {
        let named = try scan.run(["text", "Dried apricots, preservative: sulphites", "--avoid", "sulfites", "--format", "json"])
        #expect(named.status == 0, "\(named.stderr)")
        let report = try #require(named.jsonLines().first)
        #expect(report.codes.isEmpty)
        #expect((warningMessages(report["warnings"]))?.first == "The label names sulphites (“sulphites”), which you asked to watch for.")
        let carded = try scan.run(["text", "Apricots, preservative: sulphur dioxide. Contains sulphites.", "--avoid", "sulfites",
                                   "--format", "json"])
        let card = try #require(carded.jsonLines().first)
        #expect(card.codes == ["E220"])
        #expect(card.additives.first?["badge"] as? String == "red")
        #expect((warningMessages(card["warnings"])) == [])
        let terminal = try scan.run(["text", "Konservierungsstoff: Sulfite", "--avoid", "sulfites"])
        #expect(terminal.stdout.contains("Note: The label names sulphites (“Sulfite”)"), "\(terminal.stdout)")
        let unwatched = try scan.run(["text", "Konservierungsstoff: Sulfite"])
        #expect(!unwatched.stdout.contains("The label names"))
    }

    @Test func candyLabelTerminalOutput() throws {
        let run = try scan.run([ScanBinary.path("samples/candy-label.jpg"), "--region", "EU"])
        #expect(run.status == 0)
        #expect(run.stdout.contains(" red, "))
        #expect(run.stdout.contains("RED] Tartrazine (E102)"))
        #expect(run.stdout.contains("Informational only, not medical advice."))
    }

    @Test func typedTextAndStandardInputGoThroughTheSameEngine() throws {
        let typed = try scan.run(["text", "Sugar, colours: E102, E129", "--region", "EU", "--format", "json"])
        let piped = try scan.run(["text", "-", "--region", "EU", "--format", "json"], stdin: Data("Sugar, colours: E102, E129".utf8))
        #expect(typed.status == 0 && piped.status == 0)
        let a = try #require(typed.jsonLines().first), b = try #require(piped.jsonLines().first)
        #expect(a.codes == ["E102", "E129"])
        #expect(a.codes == b.codes)
        #expect(a.additives.allSatisfy { $0["badge"] as? String == "red" })
    }

    @Test func invalidUTF8OnStandardInputIsNotACrash() throws {
        let run = try scan.run(["text", "-", "--format", "json"], stdin: Data([0xFF, 0xFE, 0x45, 0x33, 0x33, 0x30, 0x00, 0xC3]))
        #expect(run.status == 0 || run.status == 12)
        #expect(!run.jsonLines().isEmpty)
    }

    @Test func codeLookup() throws {
        let run = try scan.run(["code", "E120", "--region", "US", "--diet", "vegan", "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let r = try #require(run.jsonLines().first)
        #expect(r.codes == ["E120"])
        #expect(r.badge("E120") == "yellow")
    }

    @Test func unknownCodeIsALookupError() throws {
        let run = try scan.run(["code", "E199", "--format", "json"])
        #expect(run.status == 13)
        #expect(run.jsonLines().first?.errorClass == "lookup_error")
    }

    @Test func badRegionIsAUsageError() throws {
        let run = try scan.run(["text", "E330", "--region", "Mars"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("not a valid region"))
    }
}

/// Bad input files: each is a capture_error with exit code 10, and a batch carries on.
@Suite struct BadInputTests {
    let scan = ScanBinary()

    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = scan.dataDir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// A valid PNG header (signature + IHDR) that claims 30000×30000 pixels.
    static let hugePNG: [UInt8] = {
        var b: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
        let side: UInt32 = 30000
        for _ in 0..<2 { b += [UInt8(side >> 24), UInt8(side >> 16 & 0xFF), UInt8(side >> 8 & 0xFF), UInt8(side & 0xFF)] }
        b += [8, 0, 0, 0, 0]
        b += [0x3A, 0x7E, 0x9B, 0x55]  // CRC bytes: wrong on purpose is fine; readers must still not allocate 900 MP
        return b
    }()

    @Test func eachBadFileIsACaptureError() throws {
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: ScanBinary.path("samples/candy-label.jpg")))
        let files = [
            scan.dataDir.appendingPathComponent("missing.jpg").path,
            try write("empty.jpg", []),
            try write("truncated.jpg", Array(jpeg.prefix(600))),
            try write("notes.jpg", Array("Sugar, E102\n".utf8)),
            try write("huge.png", BadInputTests.hugePNG),
        ]
        for file in files {
            let run = try scan.run([file, "--format", "json"], timeout: 120)
            #expect(run.status == 10, "\(file): \(run.status) \(run.stderr)")
            let line = try #require(run.jsonLines().first)
            #expect(line.errorClass == "capture_error", "\(file): \(line)")
            let message = (line["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(!message.isEmpty)
        }
    }

    @Test func batchKeepsGoodResultsWhenOneFileIsBad() throws {
        let bad = try write("notes.jpg", Array("hello".utf8))
        let run = try scan.run([bad, ScanBinary.path("samples/candy-label.jpg"), "--format", "json", "--region", "EU"])
        #expect(run.status == 10)
        let lines = run.jsonLines()
        #expect(lines.count == 2)
        #expect(lines.first?.errorClass == "capture_error")
        #expect(lines.last?.codes.contains("E102") == true)
    }
}

/// Saved preferences apply to later scans; flags on a run override them.
@Suite struct PreferencesEndToEndTests {
    let scan = ScanBinary()

    @Test func savedDietAppliesAndFlagsOverride() throws {
        #expect(try scan.run(["prefs", "set", "diet", "vegan"]).status == 0)
        #expect(try scan.run(["prefs", "set", "region", "US"]).status == 0)
        let saved = try #require(try scan.run(["code", "E120", "--format", "json"]).jsonLines().first)
        #expect(saved["region"] as? String == "US")
        #expect(saved.badge("E120") == "yellow")
        let overridden = try #require(try scan.run(["code", "E120", "--diet", "none", "--region", "EU", "--format", "json"]).jsonLines().first)
        #expect(overridden["region"] as? String == "EU")
        #expect(overridden.badge("E120") == "green")
    }

    @Test func regionFromLocaleWhenNothingSaved() throws {
        let run = try scan.run(["code", "E330", "--format", "json"], environment: ["LC_ALL": "en_GB.UTF-8"])
        #expect(run.jsonLines().first?["region"] as? String == "UK")
    }

    @Test func badPreferenceIsRefusedWithAHint() throws {
        let run = try scan.run(["prefs", "set", "diet", "paleo"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("vegan"))
    }
}

/// Acceptance scenario 3: a barcode-only photo, no network.
@Suite struct BarcodeEndToEndTests {
    let scan = ScanBinary()

    @Test func barcodeOnlyPhotoOfflinePrompts() throws {
        let run = try scan.run([ScanBinary.path("samples/barcode-only.jpg"), "--format", "json"], timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        let r = try #require(run.jsonLines().first)
        #expect(r["fallbackUsed"] as? Bool == true)
        #expect((r["barcode"] as? [String: Any])?["digits"] as? String == "4006381333931")
        let warnings = warningMessages(r["warnings"]) ?? []
        #expect(warnings.contains { $0.contains("online") && $0.contains("type the ingredients") }, "\(warnings)")
    }

    @Test func typedBarcodes() throws {
        let unknown = try scan.run(["barcode", "4006381333931", "--format", "json"])
        #expect(unknown.status == 13)
        #expect(unknown.jsonLines().first?.errorClass == "lookup_error")
        let wrong = try scan.run(["barcode", "4006381333932"])
        #expect(wrong.status == 12)
        #expect(wrong.stderr.contains("not a valid barcode"))
    }
}

/// The base pack shipped inside `scan` is exactly what `packs/base/` builds to.
@Suite struct BasePackTests {
    let scan = ScanBinary()

    @Test func shippedBasePackMatchesItsSource() throws {
        let built = scan.dataDir.appendingPathComponent("built.json")
        let run = try scan.run(["pack", "build", "--source", ScanBinary.path("packs/base"), "--output", built.path])
        #expect(run.status == 0, "\(run.stderr)")
        let shipped = try Data(contentsOf: URL(fileURLWithPath: ScanBinary.path("Sources/EcodexStore/Resources/base-pack.json")))
        #expect(try Data(contentsOf: built) == shipped, "packs/base changed: run `scan pack build` and commit the result")
    }

    /// The program's own label languages and regions (used when no store has any) are the base pack's.
    @Test func shippedLabelKnowledgeMatchesItsSource() throws {
        let built = scan.dataDir.appendingPathComponent("built.json"), knowledge = scan.dataDir.appendingPathComponent("knowledge.json")
        let run = try scan.run(["pack", "build", "--source", ScanBinary.path("packs/base"), "--output", built.path,
                                "--knowledge-output", knowledge.path])
        #expect(run.status == 0, "\(run.stderr)")
        let shipped = try Data(contentsOf: URL(fileURLWithPath: ScanBinary.path("Sources/EcodexCore/Resources/label-knowledge.json")))
        #expect(try Data(contentsOf: knowledge) == shipped, "packs/base changed: run `scan pack build` and commit the result")
    }

    /// Every name of another language that, accents folded, is a word of a label language
    /// (Catalan `Carotè` is Italian `carote`, carrots) is a context name or was reviewed and
    /// listed in packs/base/folded-names-reviewed.tsv: a new import of the taxonomy cannot
    /// bring such a name in unseen. The word lists are those of Tesseract's six label-language
    /// models, read by packs/tools/audit_folded_names.py.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/dawg2wordlist")
                   && FileManager.default.isExecutableFile(atPath: "/usr/bin/combine_tessdata"),
                   "needs Tesseract's dawg2wordlist and combine_tessdata (Debian package tesseract-ocr)"))
    func namesThatFoldToALabelLanguageWordAreReviewed() throws {
        let (status, output) = try ScanBinary.python("packs/tools/audit_folded_names.py",
                                                     ["--reviewed", ScanBinary.path("packs/base/folded-names-reviewed.tsv")])
        #expect(status == 0, "not reviewed (code, language, name, folded, label languages):\n\(output)")
        #expect(output.contains("0 candidates not reviewed"), "\(output)")
    }

    @Test func validationPrintsCoverage() throws {
        let run = try scan.run(["pack", "validate", "--source", ScanBinary.path("packs/base"),
                                "--texts", ScanBinary.path("Tests/EcodexCoreTests/Fixtures/ingredient-texts.jsonl")])
        // The shipped pack passes: every region rule cites its provision and every conditions
        // line reads plainly, so no region counts a rule without a citation or a hard line.
        #expect(run.status == 0, "\(run.stderr)")
        let table = run.stdout.split(separator: "\n").drop { !$0.hasPrefix("Rule provenance per region") }
        for region in ["EU", "US", "UK", "CA", "AU", "IN"] {
            let line = table.first { $0.hasPrefix("  \(region): ") }
            let counts = line?.dropFirst(region.count + 4).split(separator: "/").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(counts?.count == 5 && counts?[1] == "0" && counts?[2] == "0", "\(region): \(line ?? "no line")")
        }
        #expect(run.stdout.contains("Rules per region"))
        #expect(run.stdout.contains("EU:"))
        #expect(run.stdout.contains("Rule coverage over 307 real ingredient texts"))
        #expect(run.stdout.contains("  IN  "))
        #expect(run.stdout.contains("Rule provenance per region"))
    }
}
