import Foundation

/// What the parser and the risk engine know about label languages and regions, as data:
/// a pack defines it (`packs/base/languages.json`, `class-words.json`, `regions.json`), so a
/// new language or region is a data change. Every word table is the union over the languages.
public struct LabelKnowledge: Codable, Sendable, Equatable {
    public var languages: [LabelLanguage]
    public var regions: [RegionDefinition]

    public init(languages: [LabelLanguage] = [], regions: [RegionDefinition] = []) {
        self.languages = languages
        self.regions = regions
    }

    /// Either key may be left out (a source file holds languages or regions).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        languages = try c.decodeIfPresent([LabelLanguage].self, forKey: .languages) ?? []
        regions = try c.decodeIfPresent([RegionDefinition].self, forKey: .regions) ?? []
    }

    /// This knowledge with `other`'s languages after its own and `other`'s new regions added.
    public func merged(with other: LabelKnowledge) -> LabelKnowledge {
        var m = self
        m.languages += other.languages
        for r in other.regions where !m.regions.contains(where: { $0.code == r.code }) { m.regions.append(r) }
        return m
    }
}

/// One label language's words. Words are written as labels print them; negation, date and
/// packaging words are folded (capitals, no accents), as the parser compares them.
public struct LabelLanguage: Codable, Sendable, Equatable {
    /// ISO 639-1 code (`de`), or `mul` for rows written for several languages at once.
    public var code: String
    /// Function id (`colour`, `preservative`, `additive` for a generic header) → phrases.
    public var classWords: [ClassWords]
    /// Group words whose members are nutrients (`Vitamine`, `minéraux`).
    public var nutrientWords: [String]
    /// Articles and prepositions skipped inside names (`de`, `di`, `of`).
    public var stopWords: [String]
    /// Words that mark a number (`No`, `Nr`).
    public var numberMarks: [String]
    public var negation: NegationWords
    public var dates: DateWords
    public var packaging: PackagingWords
    /// Words one slip from an additive's name that are words of their own (`destiné`).
    public var wordsOfTheirOwn: [String]
    /// Words that name a sensitivity outside any additive (`Sulfite`, `Krebstiere`).
    public var sensitivities: [SensitivityForms]
    /// Tesseract's model of this language (`deu`), when OCR has one.
    public var ocrModel: String?
    /// Words every ingredient list in this language uses, by which OCR guesses the language.
    public var listWords: [String]

    public init(code: String, classWords: [ClassWords] = [], nutrientWords: [String] = [], stopWords: [String] = [],
                numberMarks: [String] = [], negation: NegationWords = .init(), dates: DateWords = .init(),
                packaging: PackagingWords = .init(), wordsOfTheirOwn: [String] = [],
                sensitivities: [SensitivityForms] = [], ocrModel: String? = nil, listWords: [String] = []) {
        self.code = code; self.classWords = classWords; self.nutrientWords = nutrientWords
        self.stopWords = stopWords; self.numberMarks = numberMarks; self.negation = negation; self.dates = dates
        self.packaging = packaging; self.wordsOfTheirOwn = wordsOfTheirOwn; self.sensitivities = sensitivities
        self.ocrModel = ocrModel; self.listWords = listWords
    }

    enum CodingKeys: String, CodingKey {
        case code, classWords = "class_words", nutrientWords = "nutrient_words", stopWords = "stop_words"
        case numberMarks = "number_marks", negation, dates, packaging, wordsOfTheirOwn = "words_of_their_own"
        case sensitivities, ocrModel = "ocr_model", listWords = "list_words"
    }

    /// Every key but `code` may be left out.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        code = try c.decode(String.self, forKey: .code)
        classWords = try c.decodeIfPresent([ClassWords].self, forKey: .classWords) ?? []
        nutrientWords = try c.decodeIfPresent([String].self, forKey: .nutrientWords) ?? []
        stopWords = try c.decodeIfPresent([String].self, forKey: .stopWords) ?? []
        numberMarks = try c.decodeIfPresent([String].self, forKey: .numberMarks) ?? []
        negation = try c.decodeIfPresent(NegationWords.self, forKey: .negation) ?? .init()
        dates = try c.decodeIfPresent(DateWords.self, forKey: .dates) ?? .init()
        packaging = try c.decodeIfPresent(PackagingWords.self, forKey: .packaging) ?? .init()
        wordsOfTheirOwn = try c.decodeIfPresent([String].self, forKey: .wordsOfTheirOwn) ?? []
        sensitivities = try c.decodeIfPresent([SensitivityForms].self, forKey: .sensitivities) ?? []
        ocrModel = try c.decodeIfPresent(String.self, forKey: .ocrModel)
        listWords = try c.decodeIfPresent([String].self, forKey: .listWords) ?? []
    }

    public struct ClassWords: Codable, Sendable, Equatable {
        public var id: String
        public var phrases: [String]
        public init(id: String, phrases: [String]) { self.id = id; self.phrases = phrases }
    }

    /// Words that deny what follows (`ohne`), two-word ones (`free from`), words that end the
    /// denial (`mit`), words after which `No` denies (`contains no`), words that deny the words
    /// before them (`MSG free`).
    public struct NegationWords: Codable, Sendable, Equatable {
        public var words: [String] = [], pairs: [[String]] = [], scopeEnds: [String] = []
        public var noOpeners: [String] = [], freeAfter: [String] = []
        public init() {}
        enum CodingKeys: String, CodingKey {
            case words, pairs, scopeEnds = "scope_ends", noOpeners = "no_openers", freeAfter = "free_after"
        }
        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            words = try c.decodeIfPresent([String].self, forKey: .words) ?? []
            pairs = try c.decodeIfPresent([[String]].self, forKey: .pairs) ?? []
            scopeEnds = try c.decodeIfPresent([String].self, forKey: .scopeEnds) ?? []
            noOpeners = try c.decodeIfPresent([String].self, forKey: .noOpeners) ?? []
            freeAfter = try c.decodeIfPresent([String].self, forKey: .freeAfter) ?? []
        }
    }

    /// Best-before and batch phrases: two-word ones (`best before`) and single words (`Lot`).
    public struct DateWords: Codable, Sendable, Equatable {
        public var pairs: [[String]] = [], words: [String] = []
        public init() {}
        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            pairs = try c.decodeIfPresent([[String]].self, forKey: .pairs) ?? []
            words = try c.decodeIfPresent([String].self, forKey: .words) ?? []
        }
    }

    /// Words that name the package and words that say something was put there.
    public struct PackagingWords: Codable, Sendable, Equatable {
        public var packageWords: [String] = [], addedWords: [String] = []
        public init() {}
        enum CodingKeys: String, CodingKey { case packageWords = "package_words", addedWords = "added_words" }
        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            packageWords = try c.decodeIfPresent([String].self, forKey: .packageWords) ?? []
            addedWords = try c.decodeIfPresent([String].self, forKey: .addedWords) ?? []
        }
    }

    public struct SensitivityForms: Codable, Sendable, Equatable {
        public var sensitivity: Sensitivity
        public var words: [String]
        public init(sensitivity: Sensitivity, words: [String]) { self.sensitivity = sensitivity; self.words = words }
    }
}

/// A region a pack defines: its code, the codes a shopper may also type, and the words the
/// footer and the risk engine's sentences use for it.
public struct RegionDefinition: Codable, Sendable, Equatable {
    public var code: String
    public var aliases: [String]
    /// The name a shopper reads in the footer (`European Union`).
    public var name: String
    /// The region as a sentence names it: `Allowed in the EU`, `Allowed in Canada`.
    public var inSentence: String
    /// Whose law a reason cites: `EU law`, `Canadian law`.
    public var law: String
    /// Country codes of POSIX locales that pick this region (`de_DE` → EU).
    public var countries: [String]
    /// Whose own text a rule is checked against, as a sentence names it: `the FDA`, `Health Canada`.
    public var regulator: String?

    public init(code: String, aliases: [String] = [], name: String, inSentence: String, law: String, countries: [String] = [],
                regulator: String? = nil) {
        self.code = code; self.aliases = aliases; self.name = name; self.inSentence = inSentence; self.law = law
        self.countries = countries; self.regulator = regulator
    }

    enum CodingKeys: String, CodingKey { case code, aliases, name, inSentence = "in_sentence", law, countries, regulator }
}
