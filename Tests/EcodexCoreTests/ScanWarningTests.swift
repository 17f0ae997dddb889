import Testing
@testable import EcodexCore

/// Warnings are typed: each case has a stable code for scripts and its words in one place.
@Suite struct ScanWarningTests {
    static let every: [ScanWarning] = [
        .readingStopped, .hardToRead(photos: false), .hardToRead(photos: true), .printTooSmall(photos: false),
        .printTooSmall(photos: true), .blurred(photos: false), .blurred(photos: true), .glare(photos: false),
        .glare(photos: true), .curvedText(photos: false), .curvedText(photos: true), .tooDark(photos: false),
        .tooDark(photos: true), .photosSkipped(skipped: 1, of: 3), .timeRanOut(readInFull: 2, of: 5),
        .barcodeUnknown(digits: "4006381333931", searchedOnline: false), .barcodeUnknown(digits: "4006381333931", searchedOnline: true),
        .usedProduct(source: "saved on this computer", digits: "4006381333931"), .untrustedData, .nothingFound,
        .namedOnLabel(.sulphites, text: "sulphites"), .namedOnLabel(.pku, text: "phenylalanine"),
    ]

    @Test func everyCaseHasAListedCodeAndEveryCodeACase() {
        #expect(Set(Self.every.map(\.code)) == Set(ScanWarning.codes))
        #expect(Set(ScanWarning.codes).count == ScanWarning.codes.count)
        for code in ScanWarning.codes {
            #expect(code.allSatisfy { $0.isLowercase || $0 == "-" }, "\(code) is kebab-case")
        }
    }

    /// The core words no command or flag (the command line's advice does that) and no sentence is empty.
    @Test func theWordsNameNoCommandOrFlag() {
        for w in Self.every {
            #expect(!w.message.isEmpty && w.message.hasSuffix("."), "\(w)")
            #expect(!w.message.contains("--") && !w.message.contains("`"), "\(w.message)")
        }
    }

    /// Prompts are short plain sentences: at most 18 words each, never "safe" or "unsafe".
    @Test func promptsArePlainShortSentences() {
        for w in Self.every {
            for sentence in w.message.split(separator: ".") {
                #expect(sentence.split(separator: " ").count <= 18, "\(sentence)")
            }
            #expect(!w.message.lowercased().contains("safe"), "\(w.message)")
        }
    }

    @Test func theWordsAreTheOnesShoppersSaw() {
        #expect(ScanWarning.photosSkipped(skipped: 1, of: 3).message == "1 of 3 photos could not be read and were skipped.")
        #expect(ScanWarning.namedOnLabel(.pku, text: "aspartame").message
            == "The label names phenylalanine (“aspartame”), which you asked to watch for.")
    }
}
