"""Finds additive codes and names in ingredient text: the truth matcher of the gold set.

Truth for label texts we wrote is known exactly (the writer records what it put in);
truth for real Open Food Facts texts comes from this matcher and a hand check
(goldset/README.md lists the checked lines). It is deliberately conservative:
codes must carry an E or INS prefix, names must match whole words, and names
that are also ordinary food words are left out.
"""
import json
import os
import re
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = os.path.join(os.path.dirname(HERE), "sources")

ROMAN = r"(?:viii|vii|iii|ii|iv|ix|vi|v|i)"
# E330, E 330, E-330, e.330, E*262ii, E160a(ii), E 160 a, INS 331 iii, INS330.
CODE_RE = re.compile(
    r"(?<![A-Za-z0-9])(?P<prefix>E|INS)\s?[-*.]?\s?0*(?P<num>\d{3,4})(?![0-9])"
    r"(?:\s?(?P<letter>[a-h])(?![a-z]))?"
    r"(?:\s?\(?\s?(?P<roman>" + ROMAN + r")\s?\)?(?![a-z]))?",
    re.IGNORECASE,
)

# Names that are also ordinary foods, spices, nutrients or too generic to call
# an additive without context: never counted as a names-only additive.
STOP = {
    "caramel", "caramelo", "caramello", "karamell", "karamel", "amaranth", "amaranto", "amarante",
    "paprika", "turmeric", "curcuma", "kurkuma", "cúrcuma", "iron", "gold", "silver", "argon",
    "helium", "nitrogen", "oxygen", "riboflavin", "riboflavine", "riboflavina", "citrate", "citrat",
    "citrato", "citraten", "zitrat", "lactate", "lactates", "phosphates", "phosphate", "carbonate",
    "carbonates", "pectin de fruits", "vitamin c", "vitamine c", "vitamina c", "vitamin e", "vitamine e",
    "vitamina e", "tocopherol", "lactic", "wax", "chlorophyll", "carbon", "sucre", "glucose",
    "natron", "msg", "sugar", "salt", "starch", "gelatin", "gelatine", "agar agar", "kaolin",
    "talc", "talk", "bentonite", "ethanol", "glycine", "lysozyme", "thaumatin", "inulin",
    "calcium", "magnesium", "potassium", "sodium", "zinc", "copper", "nisin", "beeswax",
    # Found by the hand check of the Open Food Facts texts (goldset/README.md): nutrients,
    # foods and fragments that the taxonomy lists under an E-number.
    "niacin", "niacine", "niacina", "speisegelatine", "fettsauren", "acidi grassi", "fatty acids",
    "acides gras", "gluconate", "gluconat", "selenite", "aluminum", "aluminium", "saffron", "safran",
    "azafran", "zafferano", "alcohol etilico", "alcool etilico", "ethanol", "dextrina", "dextrin", "dextrine",
}


# Short names that are unambiguous on a label.
ACRONYMS = {"bht", "bha", "tbhq", "pgpr"}


def fold(s):
    """Lowercase and strip diacritics, keeping one output character per input character."""
    out = []
    for ch in s:
        base = unicodedata.normalize("NFD", ch)[0]
        low = base.lower()
        out.append(low if len(low) == 1 else base)
    return "".join(out)


def comparison_code(num, letter):
    """E + number + optional letter: the level at which the gold set compares codes."""
    return "E%d%s" % (int(num), (letter or "").lower())


def find_codes(text):
    """Every prefixed code in `text` as (start, end, code at comparison level, raw text)."""
    found = []
    for m in CODE_RE.finditer(text):
        n = int(m.group("num"))
        if not 100 <= n <= 1599:
            continue
        found.append((m.start(), m.end(), comparison_code(n, m.group("letter")), m.group(0)))
    return found


def load_names():
    """(lang, name, code) rows: the curated synonyms plus Open Food Facts taxonomy names."""
    rows = []
    with open(os.path.join(SOURCES, "additive-names.jsonl"), encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            rows.append((r["lang"], r["name"], r["code"]))
    return rows


class NameMatcher:
    """Whole-word, case- and accent-insensitive matching of additive names, longest first."""

    def __init__(self, rows):
        self.code_of = {}
        for _, name, code in rows:
            key = re.sub(r"[\s\-]+", " ", fold(name).strip()).strip()
            if key in STOP or len(key) < 5 and key not in ACRONYMS:
                continue
            if any(ch.isdigit() for ch in key) and not key.startswith(("red ", "yellow ", "blue ", "polysorbate ")):
                continue
            self.code_of.setdefault(key, code)
        parts = []
        for key in sorted(self.code_of, key=len, reverse=True):
            words = [re.escape(w) for w in key.split(" ")]
            parts.append(r"[\s\-]*".join(words) if len(words) > 1 else words[0])
        self.regex = re.compile(r"(?<![a-z0-9])(?:" + "|".join(parts) + r")(?![a-z0-9])")

    def find(self, text):
        """Every name in `text` as (start, end, code at comparison level, raw text)."""
        folded = fold(text)
        found = []
        for m in self.regex.finditer(folded):
            code = self.code_of.get(re.sub(r"[\s\-]+", " ", m.group(0)).strip())
            if code:
                found.append((m.start(), m.end(), code, text[m.start():m.end()]))
        return found


def truth_for(text, matcher):
    """(truth, namesOnly, mentions) for a text: printed codes, and additives named but never coded.

    A name whose code is a printed code or its parent/child (`caramel colour E150d`:
    E150 and E150d) is the same additive written twice, not a names-only one.
    """
    codes = find_codes(text)
    spans = [(s, e) for s, e, _, _ in codes]
    names = [n for n in matcher.find(text) if not any(s < n[1] and n[0] < e for s, e in spans)]
    truth = sorted({c for _, _, c, _ in codes}, key=code_key)
    only = sorted({c for _, _, c, _ in names if not any(same_additive(c, t) for t in truth)}, key=code_key)
    mentions = sorted(codes + names)
    return truth, only, mentions


def code_key(c):
    m = re.match(r"E(\d+)([a-z]?)", c)
    return (int(m.group(1)), m.group(2))


def same_additive(a, b):
    """True for equal codes and for a code and its letter form (E150 and E150d), not E160a and E160c."""
    ma, mb = re.match(r"E(\d+)([a-z]?)", a), re.match(r"E(\d+)([a-z]?)", b)
    return ma.group(1) == mb.group(1) and (ma.group(2) == mb.group(2) or not ma.group(2) or not mb.group(2))
