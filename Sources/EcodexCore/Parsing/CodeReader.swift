/// Reads additive codes (`E330`, `E 1 2 0`, `INS N°420`, `SIN450i`, `E160a(ii)`) out of tokens.
///
/// Works on normalised tokens, so case, Cyrillic look-alikes and full-width
/// digits are already folded. A code is a prefix (`E`, `INS`, `SIN`, or an
/// OCR slip of `E`: `£`, `€`, `F`, `C`), optional separators, three or four
/// digits after leading zeros, an optional letter and an optional roman
/// sub-form. Digits that OCR read as letters (`O`, `I`, `L`, `|`, `S`, `B`,
/// `Z`) are repaired only when the store knows the result.
struct CodeReader {
    /// One code found in the tokens.
    struct Hit {
        var code: ECode
        /// Token range, end exclusive.
        var tokens: Range<Int>
        var kind: MatchKind
        /// The lexicon knows the code or its parent.
        var known: Bool
        /// Accept only in additive context (a slip prefix such as `F129`).
        var needsContext: Bool
    }

    let text: NormalizedText
    let tokens: [Token]
    let knownCodes: Set<ECode>

    func isKnown(_ c: ECode) -> Bool {
        c.lineage.contains(where: knownCodes.contains)
    }

    private func word(_ i: Int) -> ArraySlice<UInt32> {
        text.scalars[Int(tokens[i].start)..<Int(tokens[i].end)]
    }

    private func isPunct(_ i: Int, _ c: Character) -> Bool {
        i < tokens.count && tokens[i].kind == .punct && tokens[i].key == UInt64(c.unicodeScalars.first!.value)
    }

    private func wordEquals(_ i: Int, _ w: String) -> Bool {
        i < tokens.count && tokens[i].kind == .word && word(i).elementsEqual(w.unicodeScalars.map(\.value))
    }

    /// Reads prefixed codes starting at token `i`; returns hits (several for `E (124, 122)`).
    func readPrefixed(at i: Int) -> [Hit] {
        let t = tokens[i]
        if t.kind == .punct {
            // `£129`, `€211`: a currency sign where OCR lost the `E`.
            guard t.key == 0xA3 || t.key == 0x20AC, i + 1 < tokens.count, tokens[i + 1].kind == .word,
                  !tokens[i + 1].spaceBefore else { return [] }
            guard let h = readBody(word(i + 1), next: i + 2, start: i, prefixSlip: true) else { return [] }
            return [h]
        }
        let w = word(i)
        // `F 476`: a slip prefix set apart from its number, which must follow at once; like `F476`,
        // it counts only in additive context.
        if w.count == 1, w.first == 0x46 || w.first == 0x43, i + 1 < tokens.count, tokens[i + 1].kind == .word,
           tokens[i + 1].isDigits, (3...4).contains(tokens[i + 1].length) {
            guard let h = readBody(word(i + 1), next: i + 2, start: i, prefixSlip: true) else { return [] }
            return [h]
        }
        // `lNS 330`, `1NS 211`: INS with its `I` read as `l` or `1`, set apart from its number; the
        // same rule as `F 476`.
        if Self.isINSSlip(w), w.count == 3, i + 1 < tokens.count, tokens[i + 1].kind == .word,
           tokens[i + 1].isDigits, (3...4).contains(tokens[i + 1].length) {
            guard let h = readBody(word(i + 1), next: i + 2, start: i, prefixSlip: true) else { return [] }
            return [h]
        }
        // `lE330)`, `IE 471`: the opening bracket before a code read as `l`, `I` or `|`; the same
        // rule as `F 476` (`EMULSIFIANTS IE 471. 322 DE SOJA`).
        if Self.isBracketSlipE(w) {
            if w.count == 2, i + 1 < tokens.count, tokens[i + 1].kind == .word, tokens[i + 1].isDigits,
               (3...4).contains(tokens[i + 1].length) {
                return readBody(word(i + 1), next: i + 2, start: i, prefixSlip: true).map { [$0] } ?? []
            }
            guard w.count >= 5 else { return [] }
            return readBody(w.dropFirst(2), next: i + 1, start: i, prefixSlip: true).map { [$0] } ?? []
        }
        let (prefixLength, strong) = prefix(of: w)
        guard prefixLength > 0 else { return [] }
        let rest = w.dropFirst(prefixLength)
        if !rest.isEmpty {
            guard let h = readBody(rest, next: i + 1, start: i, prefixSlip: !strong) else { return [] }
            return strong ? [h] + readPrefixedListTail(after: h, ins: prefixLength == 3) : [h]
        }
        guard strong else { return [] }
        // Prefix alone: skip separators (`E-330`, `E.330`, `E_330`, `E·330`, `INS N°420`, `INS #202`,
        // `INS N'952`).
        var j = i + 1
        var separators = 0
        while j < tokens.count, separators < 3 {
            let u = tokens[j]
            if u.kind == .punct, [0x2D, 0x2E, 0x23, 0xB0, 0x27, 0x3A, 0x5F, 0xB7].contains(u.key) {
                j += 1; separators += 1; continue
            }
            if u.kind == .word, NameIndex.numberMarks.contains(u.key), j + 1 < tokens.count,
               tokens[j + 1].kind == .punct || tokens[j + 1].hasDigit {
                j += 1; separators += 1; continue
            }
            break
        }
        guard j < tokens.count else { return [] }
        if isPunct(j, "(") || isPunct(j, "[") {
            return readSharedPrefixList(open: j, prefixStart: i)
        }
        // The number starts with a digit, or with a letter OCR reads for one when a real digit
        // follows (`E l29`, `E-I02`: the `1` read as `l` or `I`), as in the glued `El29`.
        guard tokens[j].kind == .word, let first = word(j).first,
              first >= 0x30 && first <= 0x39 || Self.slips[first] != nil && tokens[j].hasDigit else { return [] }
        // A lone `E` before a number with a unit is a vitamin dose, not a code; readBody checks units.
        guard let h = readBody(word(j), next: j + 1, start: i, prefixSlip: false) else { return [] }
        return [h] + readPrefixedListTail(after: h, ins: prefixLength == 3)
    }

    /// `INS 240,241,242b`, `INS 330, 331`, `E322,E471`-free `E240,241`: numbers after a code that share
    /// its prefix. With `INS`/`SIN` the list may have spaces after its commas; with `E` it may not
    /// (`E330, 500 g` is a code and a quantity). Each number must be a code the store knows.
    private func readPrefixedListTail(after first: Hit, ins: Bool) -> [Hit] {
        guard first.known else { return [] }
        var hits: [Hit] = []
        var j = first.tokens.upperBound
        while j + 1 < tokens.count, isPunct(j, ",") || isPunct(j, "/") {
            let n = j + 1
            guard tokens[n].kind == .word, let lead = word(n).first, lead >= 0x30 && lead <= 0x39,
                  ins || (!tokens[j].spaceBefore && !tokens[n].spaceBefore),
                  var h = readBody(word(n), next: n + 1, start: n, prefixSlip: false, allowRepair: false),
                  h.known else { break }
            h.kind = first.kind == .ins || ins ? .ins : .code
            hits.append(h)
            j = h.tokens.upperBound
        }
        return hits
    }

    /// Prefix length and whether it is a true prefix (`E`, `INS`, `SIN`) or an OCR slip (`F`, `C`).
    private func prefix(of w: ArraySlice<UInt32>) -> (Int, Bool) {
        let a = Array(w.prefix(3))
        if a.count == 3, (a == [0x49, 0x4E, 0x53] || a == [0x53, 0x49, 0x4E]) { return (3, true) }
        guard let f = a.first else { return (0, false) }
        if f == 0x45 { return (1, true) }
        if (f == 0x46 || f == 0x43), w.count >= 4 { return (1, false) }
        if Self.isINSSlip(w), w.count >= 6 { return (3, false) }
        return (0, false)
    }

    /// `LE`, `IE`, `|E` at a word's start: an opening bracket read as `l`, `I` or `|`, glued to the
    /// `E` of a code (`lE330)`) or set apart with it (`IE 471`).
    static func isBracketSlipE(_ w: ArraySlice<UInt32>) -> Bool {
        guard w.count >= 2, let f = w.first else { return false }
        return (f == 0x4C || f == 0x49 || f == 0x7C) && w[w.startIndex + 1] == 0x45
    }

    /// `LNS`, `1NS`, `|NS`, `IN5`: the INS prefix with its `I` read as `l`, `1` or `|`, or its `S`
    /// as `5` (folded to capitals).
    static func isINSSlip(_ w: ArraySlice<UInt32>) -> Bool {
        guard w.count >= 3, let f = w.first else { return false }
        let i = w.startIndex
        let firstSlip = f == 0x4C || f == 0x31 || f == 0x7C
        guard firstSlip || f == 0x49, w[i + 1] == 0x4E else { return false }
        return w[i + 2] == 0x53 ? firstSlip : w[i + 2] == 0x35
    }

    /// `E (124, 122, 133)`: one prefix shared by a bracketed list of numbers.
    private func readSharedPrefixList(open: Int, prefixStart: Int) -> [Hit] {
        var hits: [Hit] = []
        var j = open + 1
        while j < tokens.count {
            if isPunct(j, ",") || isPunct(j, ";") { j += 1; continue }
            if isPunct(j, ")") || isPunct(j, "]") { break }
            guard tokens[j].kind == .word, tokens[j].hasDigit,
                  var h = readBody(word(j), next: j + 1, start: j, prefixSlip: false) else { break }
            h.kind = h.kind == .repaired ? .repaired : .code
            hits.append(h)
            j = h.tokens.upperBound
        }
        return hits
    }

    /// A bare number in the scope of a class word: `acidity regulators (330, 331)`, `Colour (150d)`.
    func readBare(at i: Int) -> Hit? {
        guard tokens[i].kind == .word, let lead = word(i).first, lead >= 0x30 && lead <= 0x39 else { return nil }
        guard var h = readBody(word(i), next: i + 1, start: i, prefixSlip: false, allowRepair: false) else { return nil }
        h.kind = .ins
        return h
    }

    private static let units: Set<String> = ["G", "MG", "KG", "ML", "L", "CL", "DL", "KCAL", "KJ", "MCG", "UG", "IU", "GR", "GRAMS", "GRAMM", "PPM"]

    /// Interprets the digits (and suffix) of a code whose body starts with `body`; `next` is the token after it.
    private func readBody(_ body: ArraySlice<UInt32>, next: Int, start: Int, prefixSlip: Bool,
                          allowRepair: Bool = true) -> Hit? {
        var chars = Array(body)
        var end = next
        // `E 1 2 0`: single digits set apart by spaces; `E 14 22`.
        if chars.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) && chars.count < 3 {
            var allSingle = chars.count == 1
            while end < tokens.count, tokens[end].kind == .word, tokens[end].isDigits, tokens[end].spaceBefore,
                  chars.count < 3 || (allSingle && chars.count < 4 && tokens[end].length == 1) {
                chars += word(end)
                allSingle = allSingle && tokens[end].length == 1
                end += 1
            }
        }
        // `E150(d)`, `150 (d)`: the letter in brackets, when the store knows the lettered code.
        if end + 2 < tokens.count, isPunct(end, "(") || isPunct(end, "["), tokens[end + 1].kind == .word,
           tokens[end + 1].length == 1, isPunct(end + 2, ")") || isPunct(end + 2, "]"),
           !chars.isEmpty, chars.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let l = word(end + 1).first,
           l >= 0x41 && l <= 0x4B, let number = Int(String(decoding: chars.map { UInt8(truncatingIfNeeded: $0) }, as: UTF8.self)),
           knownCodes.contains(ECode(number: number, letter: Character(Unicode.Scalar(l)!))) {
            chars.append(l)
            end += 3
        }
        // `331(i)`, `141[i]`, `E160a (ii)`: a roman sub-form in brackets.
        if !chars.isEmpty, let roman = romanInBrackets(at: end) {
            chars += Array("(\(roman))".unicodeScalars.map(\.value))
            end += 3
        }
        guard chars.count <= 12 else { return nil }
        if end < tokens.count, isUnitOrPercent(end) { return nil }
        // `℮ 170g`, `e180ml`: a quantity with its unit attached (℮ is the EU's estimated-quantity sign).
        // Three digits at least: `E47l` is a slip of E471, not 47 litres.
        if let firstLetter = chars.firstIndex(where: { !($0 >= 0x30 && $0 <= 0x39) }), firstLetter >= 3 {
            let unit = String(decoding: chars[firstLetter...].map { UInt8(truncatingIfNeeded: $0) }, as: UTF8.self).uppercased()
            // No package holds a hundred litres or more: `E330l` is a code whose closing bracket
            // OCR read as `l`, not `℮ 330 l`.
            if Self.units.contains(unit), unit != "L" || firstLetter < 3 { return nil }
        }
        var best: Hit?
        if let c = Self.clean(chars) {
            var last = end
            var code = c
            // `E 150 d`: a letter set apart by a space, when the store knows the lettered code.
            if c.letter == nil, c.roman == nil, last < tokens.count, tokens[last].kind == .word,
               tokens[last].length == 1, let l = word(last).first, l >= 0x41 && l <= 0x4B {
                let lettered = ECode(number: c.number, letter: Character(Unicode.Scalar(l)!))
                if knownCodes.contains(lettered) { code = lettered; last += 1 }
                // `E 160 a (ii)`: the roman sub-form after the spaced letter.
                if code == lettered, let roman = romanInBrackets(at: last) {
                    let sub = ECode(number: c.number, letter: lettered.letter, roman: roman)
                    if knownCodes.contains(sub) { code = sub; last += 3 }
                }
            }
            // `E 331 III`, `E450 i,`: a roman sub-form as a word of its own, when the store knows it.
            if code.roman == nil, let roman = romanAlone(at: last) {
                let sub = ECode(number: code.number, letter: code.letter, roman: roman)
                if knownCodes.contains(sub) { code = sub; last += 1 }
            }
            best = Hit(code: code, tokens: start..<last, kind: prefixSlip ? .repaired : .code,
                       known: isKnown(code), needsContext: prefixSlip)
            if best!.known || !allowRepair { return best }
        }
        // `E330l`, `E330|`: the closing bracket read as `l` or `|` right after the code.
        if allowRepair, let closing = chars.last, closing == 0x4C || closing == 0x7C,
           let c = Self.clean(Array(chars.dropLast())), isKnown(c) {
            return Hit(code: c, tokens: start..<end, kind: .repaired, known: true, needsContext: prefixSlip)
        }
        if allowRepair, let r = repaired(chars) {
            return Hit(code: r, tokens: start..<end, kind: .repaired, known: true, needsContext: prefixSlip)
        }
        // `INS 500ti`: a known number followed by letters no code has; keep the number, marked repaired.
        if allowRepair, best == nil, chars.count > 3, let digitsOnly = Self.clean(Array(chars.prefix { $0 >= 0x30 && $0 <= 0x39 })),
           knownCodes.contains(digitsOnly) {
            return Hit(code: digitsOnly, tokens: start..<end, kind: .repaired, known: true, needsContext: prefixSlip)
        }
        if prefixSlip { return nil }
        return best
    }

    /// `(ii)` or `[ii]` at token `i`: the roman numeral, upper-cased. In brackets `(u)` is `(ii)`
    /// whose thin letters OCR merged (alone, Spanish `u` is "or").
    private func romanInBrackets(at i: Int) -> String? {
        guard i + 2 < tokens.count, isPunct(i, "(") || isPunct(i, "["), tokens[i + 1].kind == .word,
              isPunct(i + 2, ")") || isPunct(i + 2, "]") else { return nil }
        if word(i + 1).elementsEqual([0x55]) { return "II" }
        return roman(ofWord: i + 1)
    }

    /// A roman numeral standing alone at token `i` and ending an item (`E 331 III`, `E 450 i,`),
    /// upper-cased. It must end the item: in Polish or Croatian `E 330 i E 331` says "and".
    private func romanAlone(at i: Int) -> String? {
        guard i < tokens.count, tokens[i].kind == .word, tokens[i].spaceBefore, tokens[i].length <= 4 else { return nil }
        let after = i + 1
        guard after == tokens.count || [",", ";", ")", "]", ".", "\n", "/"].contains(where: { isPunct(after, $0) }) else { return nil }
        return roman(ofWord: i)
    }

    /// The word at token `i` as a roman numeral (`ii`, `III`), upper-cased; nil when it is none.
    private func roman(ofWord i: Int) -> String? {
        let inner = String(decoding: word(i).map { UInt8(truncatingIfNeeded: $0) }, as: UTF8.self).lowercased()
        return ECode.romanNumerals.contains(inner) ? inner.uppercased() : nil
    }

    private func isUnitOrPercent(_ i: Int) -> Bool {
        let t = tokens[i]
        if t.kind == .punct { return t.key == 0x25 }
        // A table's rule read as `|` is a word letter (it may be an `l` or an `I`), so `300 mg|`
        // ends in `MG|`: the unit is still a unit (a vitamin table).
        var letters = word(i)
        while letters.count > 1, letters.last == 0x7C { letters = letters.dropLast() }
        let w = String(decoding: letters.map { UInt8(truncatingIfNeeded: $0) }, as: UTF8.self)
        return Self.units.contains(w)
    }

    /// The code spelled exactly by `chars` (digits, optional letter, optional roman), leading zeros allowed.
    static func clean(_ chars: [UInt32]) -> ECode? {
        var i = 0
        while i < chars.count, chars[i] == 0x30 { i += 1 }
        let digitStart = i
        while i < chars.count, chars[i] >= 0x30 && chars[i] <= 0x39 { i += 1 }
        let n = i - digitStart
        guard n == 3 || n == 4 else { return nil }
        if i < chars.count, !Self.isSuffixScalar(chars[i]) { return nil }
        if i == chars.count {
            // Plain digits, the common case: no string round trip.
            var number = 0
            for k in digitStart..<i { number = number * 10 + Int(chars[k] - 0x30) }
            return number >= 100 && number < 2000 ? ECode(number: number) : nil
        }
        let text = "E" + String(decoding: chars[digitStart...].map { UInt8(truncatingIfNeeded: $0) }, as: UTF8.self)
        guard let code = ECode(text), code.number >= 100 else { return nil }
        // Letter suffixes in use run from `a` to `k` (E150d, E160f, E472e); others are OCR noise.
        if let l = code.letter, !("a"..."k").contains(l) { return nil }
        return code
    }

    private static func isSuffixScalar(_ v: UInt32) -> Bool {
        (v >= 0x41 && v <= 0x5A) || v == 0x28 || v == 0x29
    }

    /// Letters OCR reads for digits (folded to capitals); the parser's one table of them.
    static let slips: [UInt32: UInt32] = [
        0x4F: 0x30, 0x51: 0x30, 0x49: 0x31, 0x4C: 0x31, 0x7C: 0x31, 0x53: 0x35, 0x42: 0x38, 0x5A: 0x32,
    ]

    /// The known code that `chars` spells once digit slips are undone, trying four digits before three.
    private func repaired(_ chars: [UInt32]) -> ECode? {
        // Words such as `Essig` spell a code with slips alone; a real digit is required.
        guard chars.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        for width in [4, 3] where chars.count >= width {
            var digits = chars[0..<width].map { Self.slips[$0] ?? $0 }
            guard digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { continue }
            // A slip must have happened: otherwise `clean` already decided.
            guard zip(digits, chars[0..<width]).contains(where: { $0 != $1 }) || width < chars.count else { continue }
            if digits.first == 0x30 { continue }
            digits += chars[width...]
            if let c = Self.clean(digits), knownCodes.contains(c) || isKnown(c) { return c }
        }
        // `160a1`, `160al`: a sub-form whose `i` OCR read as `1` or `l`.
        let digitEnd = chars.firstIndex { !($0 >= 0x30 && $0 <= 0x39) } ?? chars.count
        if digitEnd < chars.count {
            let roman = chars[..<digitEnd] + chars[digitEnd...].map { $0 == 0x31 || $0 == 0x4C || $0 == 0x7C ? 0x49 : $0 }
            if let c = Self.clean(Array(roman)), c.roman != nil, isKnown(c) { return c }
            // `E500u`, `E101u`: a sub-form's `ii` read as `u`, its thin letters merged (as in names:
            // `NameIndex.mergeSlips`). Not `cl` for `d`: `E150cl` is also `℮ 150 cl`, a bottle's size.
            if let u = chars[digitEnd...].firstIndex(of: 0x55) {
                var fixed = chars
                fixed.replaceSubrange(u..<(u + 1), with: [0x49, 0x49])
                if let c = Self.clean(fixed), c.roman != nil, isKnown(c) { return c }
            }
        }
        return nil
    }
}
