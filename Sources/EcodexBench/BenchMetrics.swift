import EcodexCore

/// True positives, false positives and false negatives, micro-averaged: counts add up
/// over (image, code) pairs before the ratios are taken.
public struct Counts: Codable, Sendable, Equatable {
    public var tp = 0
    public var fp = 0
    public var fn = 0
    public init(tp: Int = 0, fp: Int = 0, fn: Int = 0) { self.tp = tp; self.fp = fp; self.fn = fn }

    /// tp / (tp + fp); 1 when nothing was predicted (no false alarm was raised).
    public var precision: Double { tp + fp == 0 ? 1 : Double(tp) / Double(tp + fp) }
    /// tp / (tp + fn); 1 when there was nothing to find.
    public var recall: Double { tp + fn == 0 ? 1 : Double(tp) / Double(tp + fn) }
    /// Harmonic mean of precision and recall; 0 when both are 0.
    public var f1: Double {
        let p = precision, r = recall
        return p + r == 0 ? 0 : 2 * p * r / (p + r)
    }

    public static func + (a: Counts, b: Counts) -> Counts { Counts(tp: a.tp + b.tp, fp: a.fp + b.fp, fn: a.fn + b.fn) }
}

/// What one system reported for one image, scored against its truth.
public struct ImageScore: Sendable, Equatable {
    public var item: GoldItem
    /// Codes reported, at comparison level.
    public var predicted: Set<ECode>
    /// E-code detection: printed codes found / missed, and codes reported that are on neither list.
    public var codes: Counts
    /// Names-only additives: tp = found, fn = missed (fp unused).
    public var names: Counts
    /// Every additive on the label, printed or named.
    public var all: Counts
    public var falsePositives: [ECode]
    public var missedCodes: [ECode]
    public var missedNames: [ECode]
    /// Wall time to result in milliseconds.
    public var milliseconds: Double?
    /// CPU time the scan used, ms: unlike wall time it does not grow when other work shares the cores.
    public var cpuMilliseconds: Double?
    /// Error class and message when the scan failed (the image then counts as finding nothing).
    public var error: String?

    /// Scores one image.
    ///
    /// A reported code that is a names-only additive is right, not a false positive:
    /// it just does not count towards E-code recall, which is about printed codes.
    public init(item: GoldItem, predicted: Set<ECode>, milliseconds: Double?, cpuMilliseconds: Double? = nil, error: String? = nil) {
        let p = Set(predicted.map(\.withoutSubForm))
        self.item = item
        self.predicted = p
        self.milliseconds = milliseconds
        self.cpuMilliseconds = cpuMilliseconds
        self.error = error
        let expected = item.truth.union(item.namesOnly)
        codes = Counts(tp: p.intersection(item.truth).count, fp: p.subtracting(expected).count,
                       fn: item.truth.subtracting(p).count)
        names = Counts(tp: p.intersection(item.namesOnly).count, fp: 0, fn: item.namesOnly.subtracting(p).count)
        all = Counts(tp: p.intersection(expected).count, fp: p.subtracting(expected).count,
                     fn: expected.subtracting(p).count)
        falsePositives = p.subtracting(expected).sorted()
        missedCodes = item.truth.subtracting(p).sorted()
        missedNames = item.namesOnly.subtracting(p).sorted()
    }
}

/// Scores added up over a group of images (all, one condition, one language, one tier).
public struct GroupScore: Codable, Sendable, Equatable {
    public var images = 0
    public var codes = Counts()
    public var names = Counts()
    public var all = Counts()
    public var errors = 0
    public init() {}

    public mutating func add(_ s: ImageScore) {
        images += 1
        codes = codes + s.codes
        names = names + s.names
        all = all + s.all
        if s.error != nil { errors += 1 }
    }

    /// E-code detection precision, recall and F1 (the F1 gate).
    public var codePrecision: Double { codes.precision }
    public var codeRecall: Double { codes.recall }
    public var codeF1: Double { codes.f1 }
    /// Share of names-only additives found (the synonym-recall gate).
    public var synonymRecall: Double { names.recall }
}

/// Mean, median and tail of a list of times.
public struct TimeStats: Codable, Sendable, Equatable {
    public var count: Int
    public var mean: Double
    public var median: Double
    public var p95: Double
    public var max: Double

    /// Statistics of `values`; all zero for an empty list.
    public init(_ values: [Double]) {
        count = values.count
        guard !values.isEmpty else { mean = 0; median = 0; p95 = 0; max = 0; return }
        let sorted = values.sorted()
        mean = values.reduce(0, +) / Double(values.count)
        median = Self.percentile(sorted, 50)
        p95 = Self.percentile(sorted, 95)
        max = sorted.last!
    }

    /// The q-th percentile of sorted values, interpolating linearly between closest ranks
    /// (the "type 7" definition of R and NumPy, so numbers match what others compute).
    public static func percentile(_ sorted: [Double], _ q: Double) -> Double {
        guard let first = sorted.first else { return 0 }
        if sorted.count == 1 { return first }
        let pos = (q / 100) * Double(sorted.count - 1)
        let lo = Int(pos.rounded(.down)), hi = Swift.min(lo + 1, sorted.count - 1)
        return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - Double(lo))
    }
}

/// One code that went wrong, with how often and where.
public struct CodeTally: Codable, Sendable, Equatable {
    public var code: String
    public var count: Int
    /// Gold-set paths of the images, in truth order (at most `BenchSummary.exampleLimit`).
    public var images: [String]
}

/// Everything a bench run measured for one system (Ecodex or the baseline).
public struct BenchSummary: Codable, Sendable, Equatable {
    public var system: String
    public var overall: GroupScore
    /// Clean-to-moderate images: what the quality gates apply to.
    public var moderate: GroupScore
    public var hard: GroupScore
    public var byCondition: [String: GroupScore]
    public var byLanguage: [String: GroupScore]
    /// Milliseconds to result per image (failed scans included: a failure is a result too).
    public var timeMs: TimeStats
    /// CPU milliseconds per image (nil for systems measured from outside, like the baseline's child processes).
    public var cpuMs: TimeStats?
    public var worstFalsePositives: [CodeTally]
    public var worstMissedCodes: [CodeTally]
    public var worstMissedNames: [CodeTally]

    static let exampleLimit = 6

    /// Adds up image scores into overall, per-tier, per-condition and per-language groups.
    public init(system: String, scores: [ImageScore], worst: Int = 10) {
        self.system = system
        var overall = GroupScore(), moderate = GroupScore(), hard = GroupScore()
        var byCondition: [String: GroupScore] = [:], byLanguage: [String: GroupScore] = [:]
        for s in scores {
            overall.add(s)
            if s.item.isModerate { moderate.add(s) } else { hard.add(s) }
            for c in Set(s.item.conditions) { byCondition[c, default: GroupScore()].add(s) }
            byLanguage[s.item.lang, default: GroupScore()].add(s)
        }
        self.overall = overall; self.moderate = moderate; self.hard = hard
        self.byCondition = byCondition; self.byLanguage = byLanguage
        timeMs = TimeStats(scores.compactMap(\.milliseconds))
        let cpu = scores.compactMap(\.cpuMilliseconds)
        cpuMs = cpu.isEmpty ? nil : TimeStats(cpu)
        worstFalsePositives = Self.tally(scores, \.falsePositives, worst)
        worstMissedCodes = Self.tally(scores, \.missedCodes, worst)
        worstMissedNames = Self.tally(scores, \.missedNames, worst)
    }

    /// The `limit` codes that went wrong most often; ties in code order so the list is stable.
    static func tally(_ scores: [ImageScore], _ field: KeyPath<ImageScore, [ECode]>, _ limit: Int) -> [CodeTally] {
        var counts: [ECode: (Int, [String])] = [:]
        for s in scores {
            for c in s[keyPath: field] {
                var entry = counts[c] ?? (0, [])
                entry.0 += 1
                if entry.1.count < exampleLimit { entry.1.append(s.item.file) }
                counts[c] = entry
            }
        }
        return counts.sorted { a, b in a.value.0 != b.value.0 ? a.value.0 > b.value.0 : a.key < b.key }
            .prefix(limit)
            .map { CodeTally(code: $0.key.description, count: $0.value.0, images: $0.value.1) }
    }
}
