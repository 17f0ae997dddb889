import EcodexCore
import Foundation

/// Debug dumps of a reading, written only when `ECODEX_DEBUG_DIR` names a folder: the blocks
/// found in the photo, each piece as Tesseract sees it, and every word as read. Files are named
/// after the photo and its folder (`FOLDER-NAME-blocks.png`, `-0.png`, `-words.tsv`), so frames
/// named alike in different folders (`07429/a.jpg`, `07430/a.jpg`) keep their own; a write that fails is skipped.
enum ReaderDebug {
    /// The folder to write to, or nil (the usual case): no dumps.
    static var folder: String? {
        ProcessInfo.processInfo.environment["ECODEX_DEBUG_DIR"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The blocks found in `loaded` and each prepared piece.
    static func dumpPieces(of path: String, loaded: PixImage, pieces: [Piece]) {
        guard let dir = folder else { return }
        TextRegions.drawDebug(loaded, to: file(dir, path, "blocks.png"))
        for (i, piece) in pieces.enumerated() {
            try? piece.image.writePNG(to: file(dir, path, "\(i).png"))
        }
    }

    /// Every word as read: line, confidence, text (what the parser weighs; `⟨…⟩` in the JSON
    /// text marks only that a word was unsure).
    static func dumpWords(of path: String, _ words: [OCRWord]) {
        guard let dir = folder else { return }
        let rows = words.map { "\($0.line)\t\(Int($0.confidence.rounded()))\t\($0.text)" }.joined(separator: "\n")
        try? (rows + "\n").write(toFile: file(dir, path, "words.tsv"), atomically: true, encoding: .utf8)
    }

    static func file(_ dir: String, _ photo: String, _ suffix: String) -> String {
        let url = URL(fileURLWithPath: photo)
        let name = url.deletingLastPathComponent().lastPathComponent + "-" + url.deletingPathExtension().lastPathComponent
        return URL(fileURLWithPath: dir).appendingPathComponent("\(name)-\(suffix)").path
    }
}
