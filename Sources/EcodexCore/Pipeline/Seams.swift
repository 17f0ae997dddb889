/// Reads the text on a label photo: imaging plus OCR. The product uses
/// Tesseract (`EcodexVision.TesseractLabelReader`); core tests use a double.
///
/// Reading one photo is two stages the pipeline calls in turn: `prepare` (decode, find text,
/// preprocess) and `recognize` (OCR). `read(imageAt:)` is both at once.
public protocol LabelReader: AnyObject {
    /// Loads, preprocesses and recognises one image. Throws a `ClassifiedError`
    /// (`capture_error` for unreadable files, `ocr_error` for engine failures).
    func read(imageAt path: String) throws -> OCRResult
    /// Loads and preprocesses one image for `recognize`. Throws a `capture_error` for a file
    /// that is missing, not an image, damaged or too large.
    func prepare(imageAt path: String) throws -> any PreparedPhoto
    /// Recognises the text of a photo `prepare` gave. Throws an `ocr_error` when the engine fails.
    func recognize(_ photo: any PreparedPhoto) throws -> OCRResult
    /// Reads several photos, one result per photo in input order; a reader may use
    /// several cores. A photo that fails gives its error in its place.
    func read(imagesAt paths: [String]) -> [Result<OCRResult, Error>]
    /// Reads several photos and hands each result to `each` on the calling thread, in input
    /// order, as soon as it and every photo before it are read; at most `ahead` photos are read
    /// past the last one handed on.
    func read(imagesAt paths: [String], ahead: Int, each: (Int, Result<OCRResult, Error>) -> Void)
    /// Reads the frames of one burst: the first in full, as a single photo would be; the
    /// others while `seconds` of wall time from the call last (nil: no limit). A frame the
    /// time runs out on keeps what it read by then, marked `OCRResult.outOfTime`.
    func read(burstAt paths: [String], within seconds: Double?) -> [Result<OCRResult, Error>]
}

/// A photo a `LabelReader` prepared, waiting for its recognition; what it holds is the reader's own.
public protocol PreparedPhoto: AnyObject {
    /// The photo's file.
    var path: String { get }
}

/// A photo not prepared yet: readers without stages of their own read it whole in `recognize`.
public final class PhotoToRead: PreparedPhoto {
    public let path: String
    public init(path: String) { self.path = path }
}

extension LabelReader {
    /// No stage of its own: the photo is read whole by `recognize`.
    public func prepare(imageAt path: String) throws -> any PreparedPhoto { PhotoToRead(path: path) }

    /// `read(imageAt:)` of the photo's file.
    public func recognize(_ photo: any PreparedPhoto) throws -> OCRResult { try read(imageAt: photo.path) }

    /// One photo after the other.
    public func read(imagesAt paths: [String]) -> [Result<OCRResult, Error>] {
        paths.map { p in Result { try read(imageAt: p) } }
    }

    /// One photo after the other, each handed on when read.
    public func read(imagesAt paths: [String], ahead: Int, each: (Int, Result<OCRResult, Error>) -> Void) {
        for (i, p) in paths.enumerated() { each(i, Result { try read(imageAt: p) }) }
    }

    /// Every frame in full (a reader without a clock).
    public func read(burstAt paths: [String], within seconds: Double?) -> [Result<OCRResult, Error>] {
        read(imagesAt: paths)
    }
}

/// Finds product barcodes in a photo. The product uses ZBar.
public protocol BarcodeReader: AnyObject {
    func barcodes(inImageAt path: String) throws -> [Barcode]
}

/// The versions a result footer shows.
public struct DataVersions: Codable, Sendable, Equatable {
    /// Version of the additive data (the installed pack's data release).
    public var dataVersion: String
    /// Semantic version of the installed rule pack.
    public var packVersion: String
    public init(dataVersion: String, packVersion: String) {
        self.dataVersion = dataVersion
        self.packVersion = packVersion
    }
}

/// The additive store as the pipeline sees it. The product uses SQLite
/// (`EcodexStore.AdditiveStore`); core tests use `InMemoryCatalog`.
public protocol AdditiveCatalog: AnyObject {
    /// The record for `code`, or for its closest known parent (E160a(ii) → E160a → E160) when
    /// the code itself has no record; nil when neither is known.
    func additive(code: ECode) throws -> Additive?
    /// Names and codes for the parser; built once per process.
    func lexicon() throws -> Lexicon
    /// The parser for these names. Default: built from `lexicon()`; the SQLite store maps
    /// a saved one instead (`ParserImage`).
    func parser() throws -> IngredientParser
    var versions: DataVersions { get }
    /// False when the data was installed from a pack the program's own keys do not accept
    /// (installed with other keys); every result then says so. Default: true.
    var dataIsVerified: Bool { get }
}

extension AdditiveCatalog {
    public func parser() throws -> IngredientParser { IngredientParser(lexicon: try lexicon()) }
    public var dataIsVerified: Bool { true }
}

/// A catalog held in memory: for tests and for tools that read a pack directly.
public final class InMemoryCatalog: AdditiveCatalog {
    private let records: [ECode: Additive]
    private let all: [Additive]
    public let versions: DataVersions

    public init(_ additives: [Additive], versions: DataVersions = DataVersions(dataVersion: "test", packVersion: "0.0.0")) {
        self.all = additives
        self.records = Dictionary(additives.map { ($0.code, $0) }, uniquingKeysWith: { a, _ in a })
        self.versions = versions
    }

    public func additive(code: ECode) -> Additive? {
        code.lineage.lazy.compactMap { self.records[$0] }.first
    }

    public func lexicon() -> Lexicon { Lexicon(additives: all) }
}

/// A product's ingredient list, found by barcode.
public struct Product: Sendable, Equatable {
    public var barcode: String
    public var ingredientsText: String
    /// Where it came from, for the shopper: "saved on this computer", "Open Food Facts".
    public var source: String
    public init(barcode: String, ingredientsText: String, source: String) {
        self.barcode = barcode
        self.ingredientsText = ingredientsText
        self.source = source
    }
}

/// Finds a product's ingredients by barcode (local cache first; online only when allowed).
public protocol ProductSource: AnyObject {
    /// nil when the product is not known to this source.
    func product(barcode: String) throws -> Product?
    /// True when a miss means the online database was asked too (the prompt then
    /// need not suggest going online). Default: false.
    var searchesOnline: Bool { get }
    /// Told the codes the pipeline found in a product's ingredients (to cache an online find
    /// with them, unparsed again). Default: nothing.
    func assessed(_ product: Product, codes: [ECode], region: Region)
}

extension ProductSource {
    public var searchesOnline: Bool { false }
    public func assessed(_ product: Product, codes: [ECode], region: Region) {}
}
