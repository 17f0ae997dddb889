import Foundation
import Testing
import EcodexCore

/// The parser on real OCR noise without OCR cost: the gold set's real photos and phone-frame
/// renders as `scan` read them (`Fixtures/ocr-texts.jsonl`, made by goldset/tools/make_ocr_texts.py),
/// parsed with the shipped data and scored against each image's truth (printed codes and names).
@Suite("Parsing: real OCR text")
struct OCRTextSetTests {
    /// Measured 2026-11-23 on 67 texts: precision 0.978 (177 found, 4 false), recall 0.602
    /// (117 missed, most of them words OCR lost). Floors only go up.
    static let precisionFloor = 0.97
    static let recallFloor = 0.60

    @Test("Additives found in OCR text of real photos and phone frames stay above their floors")
    func floors() throws {
        let rows = ParsingFixtureLexicon.jsonLines("ocr-texts.jsonl")
        #expect(rows.count == 67)
        var tp = 0, fp = 0, fn = 0
        for row in rows {
            guard let text = row["text"] as? String, let truth = row["truth"] as? [String] else { continue }
            let want = Set((truth + (row["namesOnly"] as? [String] ?? [])).compactMap(ECode.init).map(Self.level))
            let found = Set(ParsingConventionTests.shipped.parse(text).mentions.map { Self.level($0.code) })
            func hit(_ c: ECode, _ set: Set<ECode>) -> Bool {
                set.contains { $0 == c || $0.isAncestor(of: c) || c.isAncestor(of: $0) }
            }
            tp += want.filter { hit($0, found) }.count
            fn += want.filter { !hit($0, found) }.count
            fp += found.filter { !hit($0, want) }.count
        }
        let precision = Double(tp) / Double(max(1, tp + fp)), recall = Double(tp) / Double(max(1, tp + fn))
        print("OCR text set: tp \(tp) fp \(fp) fn \(fn), precision \(String(format: "%.3f", precision)), recall \(String(format: "%.3f", recall))")
        #expect(precision >= Self.precisionFloor)
        #expect(recall >= Self.recallFloor)
    }

    /// Roman sub-forms count as their parent, as the gold set's truth is written.
    static func level(_ c: ECode) -> ECode { c.roman == nil ? c : ECode(number: c.number, letter: c.letter) }
}
