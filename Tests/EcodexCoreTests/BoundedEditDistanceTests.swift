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
    }
}
