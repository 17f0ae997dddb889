/// Repair: an ester word before mono- and diglycerides names the ester, E472 (`esteri lattici dei
/// mono- e digliceridi`); an acid's name right before an ester word is the ester's.
extension ParseSession {
    /// Whether word token `k` is an ester word or a compound ending in one.
    func endsInEsterWord(_ k: Int) -> Bool {
        let w = norm.scalars[Int(tokens[k].start)..<Int(tokens[k].end)]
        return Self.esterWords.contains { w.count >= $0.count && w.suffix($0.count).elementsEqual($0) }
    }

    /// Whether an ester word (or a compound ending in one: `Milchsäureester`, `melkzuuresters`) stands
    /// within six words before the name in `r`, in its item, and is no other additive's word:
    /// `esteri lattici dei mono- e digliceridi`, `ésteres de ácido diacetiltartárico de mono y
    /// diglicéridos` name an E472 ester, not E471; in `polyglycerol esters of fatty acids and mono- and
    /// diglycerides` the ester word is E475's (`covered`).
    func followsEsterWord(_ r: Range<Int>, covered: [Bool]) -> Bool {
        var k = r.lowerBound - 1
        var seen = 0
        while k >= 0, seen < 6, !covered[k] {
            let t = tokens[k]
            if t.kind == .punct {
                if t.key == 0x2C || t.key == 0x3B || t.key == 0x28 || t.key == 0x29 || t.key == 0x3A || t.key == 0x2E { return false }
                k -= 1
                continue
            }
            if endsInEsterWord(k) { return true }
            seen += 1
            k -= 1
        }
        return false
    }
}
