/// Ester words (`GlycerideEster`).
extension ParseSession {
    static let monoAndDiglycerides = ECode(number: 471)
    static let glycerideEsters = ECode(number: 472)
    /// `lattici`, `melkzuur-`: the words of an ester of mono- and diglycerides whose acid the store's
    /// names do not spell as the label does (`esteri lattici dei mono- e digliceridi`).
    static let esterWords: [[UInt32]] = ["ESTER", "ESTERS", "ESTERI", "ESTERES", "ESTERE"].map { $0.unicodeScalars.map(\.value) }
}
