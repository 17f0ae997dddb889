#!/usr/bin/env python3
"""Writes packs/base/class-words.json: the additive class words of every EU official
language plus Norwegian that the hand-written rows of packs/base/languages.json do not cover, from the Open Food Facts additive-class taxonomy (ODbL 1.0, credit
"Open Food Facts"; see packs/NOTICE).

English, German, French, Spanish, Italian and Dutch are left to the hand table: they are
the gold set's languages and their rows were checked on real labels. Words of fewer than
four letters are skipped (`sal`, `syr`: too easily part of other words).

    python3 packs/tools/gen_class_words.py [--taxonomy /work/shared/data/off/additives_classes.txt]
"""
import argparse, json, os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "packs/base/class-words.json")

# Languages: EU official languages without the six hand-curated ones, plus Norwegian (nb/no).
LANGS = ["bg", "cs", "da", "el", "et", "fi", "ga", "hr", "hu", "lt", "lv", "mt", "pl", "pt", "ro",
         "sk", "sl", "sv", "nb", "no"]

# Taxonomy block (its first English name) -> FunctionClasses id; nutrient blocks -> None.
IDS = {
    "Acid": "acid", "Acidity regulator": "acidity regulator", "Anti-caking agent": "anti-caking agent",
    "Anti-foaming agent": "anti-foaming agent", "Antioxidant": "antioxidant", "Bleaching agent": "flour treatment agent",
    "Bulking agent": "bulking agent", "Carbonating agent": "carbonating agent", "Carrier": "carrier",
    "Colour": "colour", "colour retention agent": "colour retention agent", "Emulsifier": "emulsifier",
    "Emulsifying salts": "emulsifying salt", "Firming agent": "firming agent", "Flavour enhancer": "flavour enhancer",
    "Flour treatment agent": "flour treatment agent", "Foaming agent": "foaming agent", "Gelling agent": "gelling agent",
    "Glazing agent": "glazing agent", "Humectant": "humectant", "Modified starch": "modified starch",
    "Packaging gas": "packaging gas", "Preservative": "preservative", "Propellent gas": "propellant",
    "Raising agent": "raising agent", "Sequestrant": "sequestrant", "Stabiliser": "stabiliser",
    "Sweetener": "sweetener", "Thickener": "thickener",
}
NUTRIENTS = {"Vitamins", "Minerals"}

# Class words the taxonomy lacks, from the regulator's own texts. Croatian (the taxonomy has
# 3 of its 26 classes): the Croatian additive rules in Narodne novine (the official gazette:
# NN 62/2010 copies Annex I of Reg. (EC) No 1333/2008, items 1-6 `sladila`, `bojila`,
# `konzervansi`, `antioksidansi`, `nosači`, `kiseline`; NN tables for the rest) and the
# Ministry of Health's Pravilnik o prehrambenim aditivima (`tvari za poliranje`). See
# packs/base/REVIEW.md, section 20. Rows whose wording only labels and secondary texts
# give (`zgušnjivač`, `stabilizator`, `sredstvo za rahljenje`, `sredstvo za želiranje`)
# are kept: a class word only vouches for a name of its own function, it adds no additive.
SUPPLEMENT = [
    ("sweetener", "hr", ["Sladilo", "Sladila", "Tvar za zaslađivanje", "Tvari za zaslađivanje"]),
    ("colour", "hr", ["Bojilo", "Bojila"]),
    ("preservative", "hr", ["Konzervans", "Konzervansi"]),
    ("antioxidant", "hr", ["Antioksidans", "Antioksidansi"]),
    ("carrier", "hr", ["Nosač", "Nosači"]),
    ("acid", "hr", ["Kiselina", "Kiseline"]),
    ("acidity regulator", "hr", ["Regulator kiselosti", "Regulatori kiselosti"]),
    ("anti-caking agent", "hr", ["Tvar protiv zgrudnjavanja", "Tvari protiv zgrudnjavanja",
                                 "Tvar za sprečavanje zgrudnjavanja", "Tvari za sprečavanje zgrudnjavanja"]),
    ("anti-foaming agent", "hr", ["Tvar protiv pjenjenja", "Tvari protiv pjenjenja"]),
    ("emulsifier", "hr", ["Emulgator", "Emulgatori"]),
    ("flavour enhancer", "hr", ["Pojačivač okusa", "Pojačivači okusa"]),
    ("glazing agent", "hr", ["Tvar za poliranje", "Tvari za poliranje"]),
    ("modified starch", "hr", ["Modificirani škrob", "Modificirani škrobovi"]),
    ("packaging gas", "hr", ["Plin za pakiranje", "Plinovi za pakiranje"]),
    ("sequestrant", "hr", ["Sekvestrant", "Sekvestranti"]),
    ("stabiliser", "hr", ["Stabilizator", "Stabilizatori"]),
    ("thickener", "hr", ["Zgušnjivač", "Zgušnjivači"]),
    ("raising agent", "hr", ["Tvar za rahljenje", "Tvari za rahljenje", "Sredstvo za rahljenje", "Sredstva za rahljenje"]),
    ("gelling agent", "hr", ["Tvar za želiranje", "Tvari za želiranje", "Sredstvo za želiranje", "Sredstva za želiranje"]),
    # The colour class name of Reg. (EU) No 1169/2011, Annex VII Part C, in these languages, and
    # its plural, which labels print before several colours (`barviva: E150d, E160a`; session 25:
    # `barviva: uhličitan vápenatý` read no E170, the taxonomy has the singular only).
    ("colour", "cs", ["Barviva"]),
    ("colour", "sk", ["Farbivá"]),
    ("colour", "sl", ["Barvila"]),
    ("colour", "et", ["Toiduvärvid"]),
    ("colour", "lt", ["Dažikliai"]),
    ("colour", "lv", ["Krāsviela", "Krāsvielas"]),
    ("colour", "el", ["Χρωστική", "Χρωστικές", "Χρωστικές ουσίες"]),
]


def blocks(path):
    block = []
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line.strip():
            if block:
                yield block
            block = []
        elif not line.startswith("#"):
            block.append(line)
    if block:
        yield block


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--taxonomy", default="/work/shared/data/off/additives_classes.txt")
    a = ap.parse_args()
    rows, nutrients = {}, {}
    for b in blocks(a.taxonomy):
        names = {}
        for line in b:
            lang, _, rest = line.partition(":")
            if len(lang) != 2 or rest.startswith(("en:", "fr:")) and ":" in rest[:4]:
                continue
            names.setdefault(lang, []).extend(w.strip() for w in rest.split(",") if w.strip())
        en = names.get("en", [None])[0]
        if en not in NUTRIENTS and en not in IDS:
            continue
        for lang in LANGS:
            out = nutrients.setdefault(lang, []) if en in NUTRIENTS else rows.setdefault((IDS[en], lang), [])
            for w in names.get(lang, []):
                letters = sum(c.isalpha() for c in w)
                if letters >= 4 and w not in out:
                    out.append(w)
    for fid, lang, words in SUPPLEMENT:
        out = rows.setdefault((fid, lang), [])
        out.extend(w for w in words if w.lower() not in {x.lower() for x in out})
    languages = []
    for lang in LANGS:
        classes = [{"id": fid, "phrases": rows[(fid, l)]} for (fid, l) in sorted(rows) if l == lang and rows[(fid, l)]]
        if classes or nutrients.get(lang):
            languages.append({"code": lang, "class_words": classes, "nutrient_words": nutrients.get(lang, [])})
    about = ("Generated by packs/tools/gen_class_words.py from the Open Food Facts additive-class taxonomy "
             "(ODbL 1.0, credit \"Open Food Facts\") and its SUPPLEMENT of regulators' words. Do not edit; edit the generator.")
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump({"about": about, "languages": languages}, f, ensure_ascii=False, indent=2, sort_keys=True)
        f.write("\n")
    print("wrote %s: %d functions, %d phrases, %d nutrient words"
          % (os.path.relpath(OUT, ROOT), len({k[0] for k in rows}), sum(map(len, rows.values())),
             sum(map(len, nutrients.values()))))


if __name__ == "__main__":
    main()
