/// The first step of the names pass: the words the name trie walks.
///
/// Each token codes did not take becomes a `NameIndex.StreamWord`; the word-level repairs
/// (`Repairs/`) decide which known word it stands for: a US colour read glued or slipped, a
/// word split by a hyphen or a space, a digit or a bracket read as a letter, a lost edge
/// letter, two words glued, a compound's last part. They are asked in a fixed order, each
/// only when the ones before found nothing, so a word is read by the first rule that fits.
extension ParseSession {
    /// The stream being built, and where it stands.
    struct NameStreamState {
        var words: [NameIndex.StreamWord] = []
        /// The next word follows a code or hard punctuation: a name does not run across it.
        var barrier = true
        /// Tokens before this one were read as part of a joined word.
        var joinedUntil = 0
        /// Scratch space for the compound rule's fuzzy look-ups.
        var compoundScratch = NameIndex.FuzzyCache(count: 0)
    }

    /// How a word token is read before the trie sees it: its vocabulary id and spelling after the
    /// spelling repairs (digit slips, calcium spellings, a bracket glyph).
    struct WordReading {
        var id: Int32
        var spelled: ArraySlice<UInt32>
        var scalarStart: Int32
        var scalarEnd: Int32
        /// Letters only, as read or once a bracket glyph is taken off: word forms and slips apply.
        var plain: Bool
    }

    /// Every word the name trie walks, in label order.
    func nameStream() -> [NameIndex.StreamWord] {
        var state = NameStreamState()
        state.words.reserveCapacity(tokens.count)
        for (position, token) in tokens.enumerated() where position >= state.joinedUntil {
            if consumed[position] { state.barrier = true; continue }
            if appendAndSign(at: position, to: &state) { continue }
            if token.kind == .punct {
                if !NameIndex.isSoftPunct(token.key) && !Token.isInnerNumberPunct(tokens, position) { state.barrier = true }
                continue
            }
            if isNumberMarkBeforeNumber(position) || isDyeBeforeNumber(position) { continue }
            if appendUSColourNumber(at: position, to: &state) { continue }
            if appendJoinedWord(at: position, to: &state) { continue }
            if NameIndex.stopWords.contains(token.key) { continue }
            appendWord(at: position, to: &state)
        }
        return state.words
    }

    /// `Mono & Diglycerides` is `mono and diglycerides`: a `&` set apart by spaces enters as `and`.
    private func appendAndSign(at position: Int, to state: inout NameStreamState) -> Bool {
        let token = tokens[position]
        guard token.kind == .punct, isAnd(position), case let andID = index.id(ofWordHash: Self.andKey), andID >= 0
        else { return false }
        state.words.append(.init(token: Int32(position), tokenEnd: Int32(position + 1), id: andID,
                                 barrierBefore: state.barrier, length: 1, lowConfidence: false, fuzzyEligible: false,
                                 scalarStart: token.start, scalarEnd: token.end))
        state.barrier = false
        return true
    }

    /// `No.`, `Nr` before a number that codes did not take: left out, so `Yellow No. 5` meets
    /// the name `Yellow 5`.
    private func isNumberMarkBeforeNumber(_ position: Int) -> Bool {
        guard NameIndex.numberMarks.contains(tokens[position].key), position + 1 < tokens.count else { return false }
        var next = position + 1
        while next < tokens.count, tokens[next].kind == .punct, NameIndex.isSoftPunct(tokens[next].key) { next += 1 }
        return next < tokens.count && tokens[next].isDigits && !consumed[next]
    }

    /// `Red Dye 40`, `Yellow Dye #5`: the word `dye` between a US colour word and its number is left out.
    private func isDyeBeforeNumber(_ position: Int) -> Bool {
        guard tokens[position].key == Self.dyeKey, position > 0, tokens[position - 1].kind == .word,
              Self.usColourKeys.contains(tokens[position - 1].key) else { return false }
        var next = position + 1
        while next < tokens.count, tokens[next].kind == .punct ? NameIndex.isSoftPunct(tokens[next].key)
            : NameIndex.numberMarks.contains(tokens[next].key) { next += 1 }
        return next < tokens.count && tokens[next].isDigits
    }

    /// `Yellow6`, `YELLOWS`, `Red 4O`, `biue 1`: a US colour name as OCR reads it enters as its
    /// colour word and number (`USColourNumber`).
    private func appendUSColourNumber(at position: Int, to state: inout NameStreamState) -> Bool {
        guard let colour = usColourNumber(at: position) else { return false }
        let token = tokens[position]
        let numberToken = tokens[colour.numberToken]
        state.words.append(.init(token: Int32(position), tokenEnd: Int32(position + 1), id: colour.colour,
                                 barrierBefore: state.barrier, length: token.end - token.start, lowConfidence: false,
                                 fuzzyEligible: false, scalarStart: token.start, scalarEnd: token.end))
        state.words.append(.init(token: Int32(colour.numberToken), tokenEnd: Int32(colour.numberToken + 1),
                                 id: colour.number, barrierBefore: false, length: numberToken.end - numberToken.start,
                                 lowConfidence: false, fuzzyEligible: false,
                                 scalarStart: numberToken.start, scalarEnd: numberToken.end))
        state.barrier = false
        state.joinedUntil = colour.numberToken + 1
        return true
    }

    /// `di-gliceridi`, `Citronen-säure`: one word split by a hyphen (`HyphenJoin`); `leci thin`,
    /// `phos` / `phoric acid`: one split by a space or a lost line-end hyphen (`SpaceJoin`).
    private func appendJoinedWord(at position: Int, to state: inout NameStreamState) -> Bool {
        let joinedID: Int32, lastToken: Int
        if let hyphenJoined = hyphenJoinedID(at: position) {
            (joinedID, lastToken) = (hyphenJoined, position + 2)
        } else if let spaceJoined = spaceJoinedID(at: position) {
            (joinedID, lastToken) = (spaceJoined, position + 1)
        } else {
            return false
        }
        let first = tokens[position]
        state.words.append(.init(token: Int32(position), tokenEnd: Int32(lastToken + 1), id: joinedID,
                                 barrierBefore: state.barrier, length: tokens[lastToken].end - first.start,
                                 lowConfidence: false, fuzzyEligible: false,
                                 scalarStart: first.start, scalarEnd: tokens[lastToken].end))
        state.barrier = false
        state.joinedUntil = lastToken + 1
        return true
    }

    /// A word token read as it is, or through the spelling repairs: a digit read for a letter
    /// (`DigitSlipWord`), a calcium spelling (`CalciumSpelling`), a bracket glyph (`BracketSlipWord`).
    private func readWord(at position: Int) -> WordReading {
        let token = tokens[position]
        var reading = WordReading(id: index.id(ofWordHash: token.key),
                                  spelled: norm.scalars[Int(token.start)..<Int(token.end)],
                                  scalarStart: token.start, scalarEnd: token.end, plain: !token.hasDigit)
        if reading.id < 0, token.hasDigit, !token.isDigits { reading.id = digitSlipWordID(token) }
        if reading.id < 0, !token.hasDigit {
            for spelling in Self.calciumSpellings(reading.spelled) {
                let known = index.id(ofWordHash: Token.hash(spelling))
                if known >= 0 || index.formIDs(spelling, own: -1).0 >= 0 {
                    (reading.id, reading.spelled) = (known, spelling[...])
                    break
                }
            }
        }
        if reading.id < 0, token.length >= Self.bracketSlipMinLength,
           Self.foldedGlyphs.contains(reading.spelled.first!) || Self.foldedGlyphs.contains(reading.spelled.last!),
           let slip = bracketSlipWord(reading.spelled, written: original(position..<(position + 1))) {
            reading.id = slip.id
            reading.spelled = norm.scalars[slip.scalars]
            reading.scalarStart = Int32(slip.scalars.lowerBound)
            reading.scalarEnd = Int32(slip.scalars.upperBound)
            reading.plain = true
        }
        return reading
    }

    /// An ordinary word: read (`readWord`), then, when it is no known word or form, asked in turn
    /// whether it lost an edge letter (`EdgeLossWord`), is two words glued (`GluedNameWords`) or a
    /// compound's last part (`CompoundTail`); an unknown word may still stand in for a known one
    /// within the fuzzy budget.
    private func appendWord(at position: Int, to state: inout NameStreamState) {
        let token = tokens[position]
        var lowConfidence = false
        if let ocr, !ocr.isEmpty, let mean = ocr.mean(over: byteRange(position..<(position + 1))) {
            lowConfidence = mean < 0.6
        }
        var reading = readWord(at: position)
        let length = Int(token.end - token.start)
        // Singular and plural are one word: `Sodium Citrate` finds `sodium citrates`.
        var forms = reading.plain && reading.spelled.count >= NameIndex.wordFormMinLength
            ? index.formIDs(reading.spelled, own: reading.id) : (-1, -1)
        let unknown = reading.id < 0 && forms.0 < 0
        let ownWord = WordsOfTheirOwn.keys.contains(token.key)
        let edgeLoss = unknown ? edgeLossWord(reading, length: length, ownWord: ownWord) : -1
        if unknown, let glued = gluedWords(reading, length: length, ownWord: ownWord) {
            let cut = reading.scalarStart + Int32(glued.cut)
            state.words.append(.init(token: Int32(position), tokenEnd: Int32(position + 1), id: glued.first,
                                     barrierBefore: state.barrier, length: Int32(glued.cut),
                                     lowConfidence: lowConfidence, fuzzyEligible: false,
                                     scalarStart: reading.scalarStart, scalarEnd: cut))
            state.words.append(.init(token: Int32(position), tokenEnd: Int32(position + 1), id: glued.second,
                                     barrierBefore: false, length: Int32(length - glued.cut),
                                     lowConfidence: lowConfidence, fuzzyEligible: false,
                                     scalarStart: cut, scalarEnd: reading.scalarEnd))
            state.barrier = false
            return
        }
        var compound = false
        if unknown, edgeLoss < 0, !token.hasDigit, let part = compoundTail(token, scratch: &state.compoundScratch) {
            (reading.id, forms, compound) = (part.id, part.forms, true)
        }
        let stillUnknown = reading.id < 0 && forms.0 < 0
        let eligible = stillUnknown && !token.hasDigit && length <= 40
            && (length >= NameIndex.fuzzyMinLength || (lowConfidence && length >= NameIndex.fuzzyMinLength - 1))
            && !ownWord
        state.words.append(.init(token: Int32(position), tokenEnd: Int32(position + 1), id: reading.id, forms: forms,
                                 barrierBefore: state.barrier, length: Int32(length), lowConfidence: lowConfidence,
                                 fuzzyEligible: eligible, scalarStart: reading.scalarStart,
                                 scalarEnd: reading.scalarEnd, compound: compound,
                                 lineStart: stillUnknown && norm.startsLine(token.start), edgeLoss: edgeLoss))
        state.barrier = false
    }
}
