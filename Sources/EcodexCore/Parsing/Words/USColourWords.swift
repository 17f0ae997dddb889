/// US certified colour words (`USColourNumber`).
extension ParseSession {
    /// US certified colours are a colour word and a number (`Yellow 5`, `Red 40`, `Blue 1`).
    static let usColourWords: [[UInt32]] = ["RED", "YELLOW", "BLUE", "GREEN"].map { $0.unicodeScalars.map(\.value) }
    static let usColourKeys: [UInt64] = usColourWords.map { Token.hash($0) }
    static let dyeKey = Token.hash("DYE")
}
