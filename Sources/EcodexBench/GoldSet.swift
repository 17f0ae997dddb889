import EcodexCore
import Foundation

/// One labelled image of the gold set: a line of `goldset/truth.jsonl`.
///
/// `truth` holds the additives the label prints as codes (`E 330`, `INS 211`,
/// `citric acid (E330)`); `namesOnly` those it writes only as names (`carmine`).
/// The two are disjoint. Codes compare at E + number + letter (`ECode.withoutSubForm`).
public struct GoldItem: Sendable, Equatable {
    /// Path relative to the gold-set folder (`synth/g0001.jpg`, `real/irockel_image-5.jpg`).
    public var file: String
    public var truth: Set<ECode>
    public var namesOnly: Set<ECode>
    /// Capture conditions (`clean`, `curved`, `low_light`, ...). Never empty.
    public var conditions: [String]
    /// `en`, `de`, `fr`, `es`, `it`, `nl`, or `mixed` for multi-language panels.
    public var lang: String
    /// `moderate` (clean-to-moderate: the quality gate) or `hard` (reported apart).
    public var tier: String
    public var region: String?
    public var source: String?
    /// More frames of the same label (`frames/07438/b1.jpg`, …), for burst scoring; `file` is the first.
    public var burst: [String]

    public init(file: String, truth: Set<ECode>, namesOnly: Set<ECode> = [], conditions: [String] = ["clean"],
                lang: String = "en", tier: String = "moderate", region: String? = nil, source: String? = nil,
                burst: [String] = []) {
        self.file = file
        self.truth = Set(truth.map(\.withoutSubForm))
        self.namesOnly = Set(namesOnly.map(\.withoutSubForm)).subtracting(self.truth)
        self.conditions = conditions.isEmpty ? ["clean"] : conditions
        self.lang = lang; self.tier = tier; self.region = region; self.source = source
        self.burst = burst
    }

    /// Every frame of the burst, this item's own first.
    public var burstFrames: [String] { [file] + burst }

    /// True for the clean-to-moderate tier, the one the F1 and recall gates apply to.
    public var isModerate: Bool { tier != "hard" }
}

/// Reads and filters the gold set's truth file.
public enum GoldSet {
    /// A truth line as stored; extra fields (`text`, `params`) are ignored.
    private struct Line: Decodable {
        var file: String
        var truth: [String]
        var namesOnly: [String]?
        var conditions: [String]?
        var lang: String?
        var tier: String?
        var region: String?
        var source: String?
        var burst: [String]?
        /// Real-photo truth: `none` marks a label nobody could read on any frame (not scored).
        var legible: String?
        /// Real-photo truth: false for cosmetics, medicines and household goods filmed with the
        /// food (not scored: Ecodex reads food labels).
        var food: Bool?
    }

    /// Parses JSON Lines truth text. Blank lines are skipped; a bad line throws with its number.
    public static func parse(_ text: String) throws -> [GoldItem] {
        var items: [GoldItem] = []
        let decoder = JSONDecoder()
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            let l: Line
            do {
                l = try decoder.decode(Line.self, from: Data(line.utf8))
            } catch {
                throw GoldSetError.notATruthLine(line: n + 1, detail: "\(error)")
            }
            func codes(_ list: [String]) throws -> Set<ECode> {
                Set(try list.map { s in
                    guard let c = ECode(s) else {
                        throw GoldSetError.notACode(line: n + 1, text: s)
                    }
                    return c
                })
            }
            if l.legible == "none" || l.food == false { continue }
            items.append(GoldItem(file: l.file, truth: try codes(l.truth), namesOnly: try codes(l.namesOnly ?? []),
                                  conditions: l.conditions ?? ["clean"], lang: l.lang ?? "en", tier: l.tier ?? "moderate",
                                  region: l.region, source: l.source, burst: l.burst ?? []))
        }
        return items
    }

    /// Loads `truth.jsonl` from a gold-set folder.
    public static func load(folder: String) throws -> [GoldItem] {
        let url = URL(fileURLWithPath: folder).appendingPathComponent("truth.jsonl")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw GoldSetError.noTruthFile(path: url.path)
        }
        return try parse(String(decoding: data, as: UTF8.self))
    }

    /// Which images a run uses.
    public struct Selection: Sendable, Equatable {
        /// Keep images with at least one of these conditions (empty: all).
        public var conditions: Set<String> = []
        /// Keep images in these languages (empty: all).
        public var langs: Set<String> = []
        /// Keep images of this tier, `moderate` or `hard` (nil: both).
        public var tier: String?
        /// `fast`: a small fixed sample, a few clean-to-moderate images per condition plus real photos.
        public var fast: Bool = false
        /// At most this many images, drawn with `seed` (nil: all).
        public var limit: Int?
        /// Seed of the draw for `limit` and `fast`; the same seed gives the same images.
        public var seed: UInt64 = 2026
        public init(conditions: Set<String> = [], langs: Set<String> = [], tier: String? = nil, fast: Bool = false,
                    limit: Int? = nil, seed: UInt64 = 2026) {
            self.conditions = conditions; self.langs = langs; self.tier = tier; self.fast = fast; self.limit = limit; self.seed = seed
        }
    }

    /// The images a run uses, in truth-file order. Deterministic for a given selection.
    public static func select(_ items: [GoldItem], _ s: Selection) -> [GoldItem] {
        var pool = items.enumerated().filter { _, item in
            (s.conditions.isEmpty || !s.conditions.isDisjoint(with: item.conditions))
                && (s.langs.isEmpty || s.langs.contains(item.lang))
                && (s.tier == nil || (s.tier == "hard") != item.isModerate)
        }
        var rng = SplitMix64(seed: s.seed)
        if s.fast {
            // Two clean-to-moderate images per primary condition plus two real photos: every
            // condition and language is touched in well under a minute of OCR.
            var picked: [(offset: Int, element: GoldItem)] = []
            var byCondition: [String: [(offset: Int, element: GoldItem)]] = [:]
            for e in pool where e.element.isModerate {
                let key = e.element.conditions.contains("real") ? "real" : e.element.conditions[0]
                byCondition[key, default: []].append(e)
            }
            // Each condition draws from its own generator, so adding a condition to the gold
            // set leaves the other conditions' picks as they were.
            for key in byCondition.keys.sorted() {
                var group = byCondition[key]!
                var own = SplitMix64(seed: s.seed ^ Self.stableHash(key))
                own.shuffle(&group)
                picked += group.prefix(2)
            }
            pool = picked
        }
        if let limit = s.limit, limit < pool.count {
            rng.shuffle(&pool)
            pool = Array(pool.prefix(max(0, limit)))
        }
        return pool.sorted { $0.offset < $1.offset }.map(\.element)
    }
}

extension GoldSet {
    /// FNV-1a of a string's UTF-8: the same on every machine and Swift version (unlike `hashValue`).
    static func stableHash(_ s: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }
}

/// Why a gold set cannot be read.
public enum GoldSetError: ClassifiedError, Equatable {
    /// Line `line` (1-based) of `truth.jsonl` does not decode as a truth line.
    case notATruthLine(line: Int, detail: String)
    /// Line `line` lists `text`, which is not an additive code.
    case notACode(line: Int, text: String)
    /// No `truth.jsonl` at `path`: the folder given is not a gold set.
    case noTruthFile(path: String)

    public var errorClass: ErrorClass {
        switch self {
        case .notATruthLine, .notACode: .parse
        case .noTruthFile: .capture
        }
    }

    public var description: String {
        switch self {
        case .notATruthLine(let line, let detail): "truth line \(line): \(detail)"
        case .notACode(let line, let text): "truth line \(line): \"\(text)\" is not a code"
        case .noTruthFile(let path): "no truth file at \(path)"
        }
    }
}
