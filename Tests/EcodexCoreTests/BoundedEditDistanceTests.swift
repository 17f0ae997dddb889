import Testing
@testable import EcodexCore

@Suite struct BoundedEditDistanceTests {
    static func d(_ a: String, _ b: String, _ limit: Int) -> Int {
        EditDistance.bounded(a.unicodeScalars.map(\.value), b.unicodeScalars.map(\.value), limit: limit)
    }

    @Test func countsEditsUpToTheLimit() {
        #expect(Self.d("GESATTIGTE", "GESATTIGTE", 2) == 0)
        #expect(Self.d("GESDTTIGTE", "GESATTIGTE", 2) == 1)
        #expect(Self.d("GESDITIGTE", "GESATTIGTE", 2) == 2)
        #expect(Self.d("PERATIIGTE", "GESATTIGTE", 2) == 3, "past the limit: limit + 1")
        #expect(Self.d("", "ABC", 5) == 3)
        #expect(Self.d("ABC", "", 5) == 3)
        #expect(Self.d("SATARES", "SATURES", 1) == 1)
        #expect(Self.d("SATURE", "SATURES", 1) == 1)
        #expect(Self.d("ABCDEFG", "A", 2) == 3)
        #expect(Self.d("TARTRAZIEN", "TARTRAZINE", 2) == 1, "a swap of neighbours is one edit, as name search counts it")
        #expect(Self.d("HSITORY", "HISTORY", 2) == 1)
        #expect(Self.d("ABCD", "BADC", 2) == 2, "two swaps are two edits")
    }

    @Test("A slip never turns one salt's element into another", arguments: [
        // (known word, word read, swaps)
        ("KALIUMLAKTAT", "KALSIUMLAKTAT", true),   // Norwegian calcium, Danish potassium
        ("KALIUMKLORID", "KALZIUMKLORID", true),   // German Kalzium
        ("KALIJEV", "KALCIJEV", true),             // Croatian
        ("KALIUMSORBAT", "KALIUMSORBAL", false),   // a slip that keeps the element
        ("KALIUMSORBAT", "KALIMSORBAT", false),    // a slip inside the element's own stem
        ("CALCIUMLACTAT", "KALCIUMLACTAT", false), // two spellings of one element
        ("CITRONENSAURE", "CITRONENSAIRE", false), // no element at all
    ] as [(String, String, Bool)])
    func elementSwaps(known: String, read: String, swaps: Bool) {
        let k = known.unicodeScalars.map(\.value), r = read.unicodeScalars.map(\.value)
        #expect(EditDistance.swapsElement(k, observed: EditDistance.elements(in: r)) == swaps)
    }
}
