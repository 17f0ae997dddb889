import Foundation

extension LabelKnowledge {
    /// The knowledge shipped with the program (`Resources/label-knowledge.json`, written by the
    /// pack builder from `packs/base/`): what a process uses when no store installed its own.
    public static let shipped: LabelKnowledge = {
        guard let url = Bundle.module.url(forResource: "label-knowledge", withExtension: "json"),
              let data = try? Data(contentsOf: url), data.count <= maximumBytes,
              let knowledge = try? decode(data) else {
            preconditionFailure("the program's label-knowledge.json is missing or damaged; rebuild the program")
        }
        return knowledge
    }()

    /// Knowledge larger than this is refused: the shipped file is under 150 kB.
    public static let maximumBytes = 4 << 20

    /// Decodes knowledge from JSON bytes (`CanonicalJSONError` or `DecodingError` when it is none).
    public static func decode(_ bytes: some Collection<UInt8>) throws -> LabelKnowledge {
        try JSONValueDecoder().decode(LabelKnowledge.self, from: JSONValue.parse(bytes))
    }

    /// The bytes of this knowledge as JSON with sorted keys, so the same knowledge gives the same bytes.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    private final class State: @unchecked Sendable {
        let lock = NSLock()
        var installed: LabelKnowledge?
        var frozen = false
    }
    private static let state = State()

    /// The knowledge this process parses and judges by: the one a store installed before anything
    /// read it, else `shipped`. Fixed at the first read, since the parser's tables derive from it.
    public static let current: LabelKnowledge = {
        state.lock.lock()
        defer { state.lock.unlock() }
        state.frozen = true
        return state.installed ?? shipped
    }()

    /// Makes `knowledge` the process's `current`. False when `current` was already read and differs:
    /// the process keeps judging by what it started with.
    @discardableResult
    public static func install(_ knowledge: LabelKnowledge) -> Bool {
        state.lock.lock()
        let taken = !state.frozen
        if taken { state.installed = knowledge }
        state.lock.unlock()
        return taken || knowledge == current
    }
}

/// The word tables of `LabelKnowledge.current`, folded and hashed as the parser compares them.
/// Each table is the union of its rows over the languages, in the languages' order.
struct LabelTables: Sendable {
    static let current = LabelTables(LabelKnowledge.current)

    /// Class words of the rows written for several languages (`mul`), then of every other language.
    let sharedClassWords: [(id: String, phrases: [String])]
    let languageClassWords: [(id: String, lang: String, phrases: [String])]
    let sharedNutrientWords: [String]
    let languageNutrientWords: [String]
    let stopWords: [UInt64]
    let numberMarks: [UInt64]
    let negationWords: [UInt64]
    let negationPairs: [(UInt64, UInt64)]
    let scopeEnds: [UInt64]
    let noOpeners: [UInt64]
    let freeAfter: [UInt64]
    let datePairs: [(UInt64, UInt64)]
    let dateWords: [UInt64]
    let packageWords: [UInt64]
    let addedWords: [UInt64]
    let wordsOfTheirOwn: [String]
    let sensitivityWords: [UInt64: Sensitivity]
    /// Tesseract model → list words, for `LabelLanguages`.
    let listWords: [(code: String, words: String)]

    init(_ k: LabelKnowledge) {
        let shared = k.languages.filter { $0.code == "mul" }, others = k.languages.filter { $0.code != "mul" }
        sharedClassWords = shared.flatMap { $0.classWords.map { ($0.id, $0.phrases) } }
        languageClassWords = others.flatMap { l in l.classWords.map { ($0.id, l.code, $0.phrases) } }
        sharedNutrientWords = shared.flatMap(\.nutrientWords)
        languageNutrientWords = others.flatMap(\.nutrientWords)
        func hashes(_ words: (LabelLanguage) -> [String]) -> [UInt64] {
            var out: [UInt64] = []
            for l in k.languages {
                for w in words(l) where !out.contains(Self.key(w)) { out.append(Self.key(w)) }
            }
            return out
        }
        func pairs(_ rows: (LabelLanguage) -> [[String]]) -> [(UInt64, UInt64)] {
            k.languages.flatMap(rows).filter { $0.count == 2 }.map { (Self.key($0[0]), Self.key($0[1])) }
        }
        stopWords = hashes(\.stopWords)
        numberMarks = hashes(\.numberMarks)
        negationWords = hashes(\.negation.words)
        negationPairs = pairs(\.negation.pairs)
        scopeEnds = hashes(\.negation.scopeEnds)
        noOpeners = hashes(\.negation.noOpeners)
        freeAfter = hashes(\.negation.freeAfter)
        datePairs = pairs(\.dates.pairs)
        dateWords = hashes(\.dates.words)
        packageWords = hashes(\.packaging.packageWords)
        addedWords = hashes(\.packaging.addedWords)
        wordsOfTheirOwn = k.languages.flatMap(\.wordsOfTheirOwn)
        var sensitivity: [UInt64: Sensitivity] = [:]
        for l in k.languages {
            for row in l.sensitivities {
                for w in row.words { sensitivity[Self.key(w)] = row.sensitivity }
            }
        }
        sensitivityWords = sensitivity
        listWords = k.languages.compactMap { l in
            l.ocrModel.map { (code: $0, words: l.listWords.joined(separator: " ")) }
        }
    }

    /// A word's key as the parser folds and hashes a token (`Token.key`): `ohne` and `OHNE` alike.
    static func key(_ word: String) -> UInt64 { Token.hash(NormalizedText(word).scalars) }
}
