/// Repair: a name qualified as saturated is a nutrition-table line, even with its qualifier slipped
/// (`gesdttigte Fettsäuren`).
extension ParseSession {
    /// How far from `c` a saturation word is sought: `saturationWindow` words, or `nutritionWindow`
    /// for a slipped name read from unsure words, since a blurred bilingual table reads its qualifier
    /// slipped beyond the German rule or a line further on (`Fettsduren` is no E570 there).
    func saturationWindow(_ c: Candidate) -> Int {
        guard let ocr, !ocr.isEmpty, c.kind == .fuzzy,
              (ocr.mean(over: byteRange(c.tokens)) ?? 1) < Self.unsureNameConfidence else { return Self.saturationWindow }
        return Self.nutritionWindow
    }

    /// A saturation word (folded) as small print reads: one of `saturationWords` or longer, or
    /// the German `gesättigte` within two slips (`gesdttigte`, `gesditigte` on real phone
    /// frames), or a Romance form within one slip after its `SAT` (`satares`, `satori`).
    /// `NATURE` is not one: the `SAT` must be read.
    static func isSaturationWord(_ w: String) -> Bool {
        if saturationWords.contains(where: { w.hasPrefix($0) }) { return true }
        let v = Array(w.unicodeScalars.map(\.value))
        for f in germanSaturation where v.count >= f.count - 1 {
            if EditDistance.bounded(Array(v.prefix(f.count)), f, limit: 2) <= 2 { return true }
        }
        guard v.count >= 5, w.hasPrefix("SAT") else { return false }
        return romanceSaturation.contains { abs(v.count - $0.count) <= 1 && EditDistance.bounded(v, $0, limit: 1) <= 1 }
    }
}
