/// Repair: local spellings of calcium (`Kalzium`, `kalsium`) one letter from potassium (`kalium`).
extension ParseSession {
    /// German `Kalzium` and Norwegian `kalsium` (one letter from `kalium`, potassium) spelled
    /// as the Swedish and the German or Danish names spell calcium: `kalsiumlaktat` →
    /// `KALCIUMLAKTAT`, `Kalziumcarbonat` → `CALCIUMCARBONAT`. Empty when the word holds
    /// neither spelling.
    static func calciumSpellings(_ word: ArraySlice<UInt32>) -> [[UInt32]] {
        let n = word.count, b = word.startIndex
        guard n >= 7 else { return [] }
        for i in 0...(n - 5) where word[b + i] == 0x4B && word[b + i + 1] == 0x41 && word[b + i + 2] == 0x4C
            && (word[b + i + 3] == 0x5A || word[b + i + 3] == 0x53) && word[b + i + 4] == 0x49 {
            var v = Array(word)
            v[i + 3] = 0x43  // KALZI, KALSI -> KALCI
            var c = v
            c[i] = 0x43  // -> CALCI
            return [v, c]
        }
        return []
    }
}
