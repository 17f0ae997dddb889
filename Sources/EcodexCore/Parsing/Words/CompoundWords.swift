/// Compounds that end in an additive's name but name another substance (`CompoundTail`).
extension ParseSession {
    /// Words that end in an additive's name but name another substance (folded, matched as a
    /// prefix so endings and plurals count): `Trägerstoff: Maltodextrin` is no dextrin (E1400).
    static let compoundsOfOtherSubstances: [[UInt32]] = ["MALTODEXTRIN", "CYCLODEXTRIN", "AMYLOPEKTIN", "AMYLOPECTIN",
                                                         "POLYCARBONAT", "NITROCELLULOSE", "NITROGLYCERIN"]
        .map { $0.unicodeScalars.map(\.value) }
}
