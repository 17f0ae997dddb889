/// Fuses what the parser found on several frames of the same label into one result.
///
/// Small print on a phone frame reads differently in every frame: a word lost to
/// glare in one is sharp in the next, and an OCR slip rarely repeats in the same
/// place. So an additive counts when two frames agree on it (at the level a label
/// writes it: `E150` in one frame and `E150d` in another agree), or when a single
/// frame read it surely (`singleFrameConfidence`). Everything else that appears
/// only once, weakly, is dropped as a likely misreading, except in the lead frame
/// (the one that read the ingredient list best): what it finds counts as it would on a
/// single photo, so a burst never finds less than its lead frame alone. A frame whose parse
/// missed an additive still supports it when it read the same words at the same place
/// (`FrameAlignment`): the label moves a little between frames.
public enum BurstFusion {
    /// A mention seen in one frame only counts at or above this confidence
    /// (`Mention.confidence`: match kind times the OCR confidence of its words).
    public static let singleFrameConfidence = 0.8

    /// One parse result for all frames: the accepted mentions (each the surest reading
    /// of its additive, in the order of the frame it came from) and unknown codes seen
    /// in two frames. `lead` is the index of the frame that read the list best (the caller
    /// chooses; `ScanPipeline.scanBurst` takes the most ingredient words read surely): its
    /// mentions count without a second frame, as a single photo's would.
    ///
    /// Without a lead a burst finds fewer additives than its best frame alone: small print on a phone
    /// frame is rarely read surely twice.
    ///
    /// `words`: each frame's OCR words, the ones its parse result's spans index (`OCRResult.byteRanges`);
    /// empty, or a frame without words, gives that frame no word-level support.
    public static func fuse(_ frames: [ParseResult], words: [[OCRWord]] = [], lead: Int? = nil) -> ParseResult {
        // One frame's evidence is all there is: nothing is dropped.
        guard frames.count > 1 else { return frames.first ?? ParseResult() }
        // Per frame, the surest mention of each code.
        var perFrame: [[ECode: Mention]] = []
        for f in frames {
            var best: [ECode: Mention] = [:]
            for m in f.mentions where (best[m.code]?.confidence ?? -1) < m.confidence { best[m.code] = m }
            perFrame.append(best)
        }
        var candidates: [(frame: Int, mention: Mention)] = []
        var seen = Set<ECode>()
        for (i, best) in perFrame.enumerated() {
            for m in frames[i].mentions where best[m.code] == m && !seen.contains(m.code) {
                seen.insert(m.code)
                candidates.append((i, m))
            }
        }
        let reread = WordSupport(words: words, frames: frames.count)
        var accepted: [Mention] = []
        for (from, m) in candidates {
            var support = 0
            var surest = m
            for (j, best) in perFrame.enumerated() {
                let agreeing = best.values.filter { agree($0.code, m.code) }
                guard let top = agreeing.max(by: { $0.confidence < $1.confidence }) else {
                    // This frame's parse missed it, but it may have read the same words there.
                    if reread.reads(m, of: from, in: j) { support += 1 }
                    continue
                }
                support += 1
                // Prefer the more specific code (E150d over E150) when both are sure enough.
                if top.confidence > surest.confidence
                    || (m.code.isAncestor(of: top.code) && top.confidence >= singleFrameConfidence) {
                    surest = top
                }
            }
            let inLead = lead.map { frames.indices.contains($0) && perFrame[$0].values.contains { agree($0.code, m.code) } } ?? false
            if support >= 2 || surest.confidence >= singleFrameConfidence || inLead {
                accepted.append(surest)
            }
        }
        // One card per additive: drop a code whose more specific form was also accepted.
        let cardCodes = accepted.cardCodes()
        var mentions: [Mention] = []
        for (a, card) in zip(accepted, cardCodes) where card == a.code && !mentions.contains(where: { $0.code == a.code }) {
            mentions.append(a)
        }
        var counts: [String: Int] = [:]
        var unmatched: [String] = []
        for f in frames {
            for u in Set(f.unmatched) { counts[u, default: 0] += 1 }
        }
        for f in frames {
            for u in f.unmatched where counts[u, default: 0] >= 2 && !unmatched.contains(u) { unmatched.append(u) }
        }
        // A sensitivity named in so many words in any frame: whole words, never slips (`SensitivityWords`).
        var named: [NamedSensitivity] = []
        for f in frames {
            for n in f.named where !named.contains(where: { $0.sensitivity == n.sensitivity }) { named.append(n) }
        }
        return ParseResult(mentions: mentions, unmatched: unmatched, named: named)
    }

    /// Same additive as a label writes it: equal, or one is the other's parent.
    static func agree(_ a: ECode, _ b: ECode) -> Bool {
        a == b || a.isAncestor(of: b) || b.isAncestor(of: a)
    }

    /// Whether another frame read a mention's words at the same place; shifts are worked out
    /// once per pair of frames, on first need.
    private final class WordSupport {
        let words: [[OCRWord]]
        let ranges: [[Range<Int>]]
        var shifts: [Int: FrameAlignment?] = [:]
        let count: Int

        init(words: [[OCRWord]], frames: Int) {
            self.words = words.count == frames ? words : []
            ranges = self.words.map(OCRResult.byteRanges)
            count = frames
        }

        func reads(_ m: Mention, of a: Int, in b: Int) -> Bool {
            guard a != b, words.indices.contains(a), words.indices.contains(b) else { return false }
            let own = zip(words[a], ranges[a]).filter { $0.1.overlaps(m.span) }.map(\.0)
            guard !own.isEmpty else { return false }
            let pair = a * count + b
            if shifts[pair] == nil { shifts[pair] = .some(FrameAlignment.between(words[a], words[b])) }
            guard let shift = shifts[pair] ?? nil else { return false }
            return shift.finds(own, in: words[b])
        }
    }
}
