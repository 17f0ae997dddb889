/// Pass: normalise (fold case, diacritics, look-alikes; keep byte offsets) and tokenise. It runs
/// as the session is made, as every later pass reads the tokens.
extension ParseSession {
    init(text: String, words: [OCRWord]?, index: NameIndex, knownCodes: Set<ECode>, functions: [ECode: [String]] = [:]) {
        self.index = index
        self.functions = functions
        norm = NormalizedText(text)
        tokens = Token.tokenize(norm)
        bytes = Array(text.utf8)
        ocr = words.map { [bytes] in WordConfidence(bytes: bytes, words: $0) }
        reader = CodeReader(text: norm, tokens: tokens, knownCodes: knownCodes)
        consumed = [Bool](repeating: false, count: tokens.count)
        structure = IngredientStructure(tokens: tokens)
    }
}
