extension ParseSession {
    /// Digits OCR reads for letters of the same shape inside a word (`S0DIUM`, `POLYS0RBATE`, `C1TRIC`).
    static let digitLetters: [UInt32: [UInt32]] = [0x30: [0x4F], 0x31: [0x49, 0x4C], 0x35: [0x53], 0x38: [0x42]]
}
