#!/usr/bin/env python3
"""Copies the source data the gold set is built from into goldset/sources/ (run once).

    goldset/tools/prepare_sources.py [DATA_DIR]   (default /work/shared/data)

Writes:
  sources/off-texts.jsonl      real ingredient lists (Open Food Facts, ODbL) in the six
                               label languages and mixed panels, with their source
  sources/additive-names.jsonl additive names in en, de, fr, es, it, nl with their code:
                               the project's synonym list, Open Food Facts taxonomy names
                               (ODbL) and a few Dutch names written for the gold set

After this the generator needs nothing outside the repository.
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(HERE), "sources")
LANGS = ("en", "de", "fr", "es", "it", "nl")

# Dutch names, written for the gold set (the synonym list has no Dutch).
DUTCH = {
    "E100": ["curcumine"], "E120": ["karmijnzuur", "karmijn", "cochenille"], "E160a": ["bètacaroteen"],
    "E200": ["sorbinezuur"], "E202": ["kaliumsorbaat"], "E211": ["natriumbenzoaat"], "E250": ["natriumnitriet"],
    "E260": ["azijnzuur"], "E270": ["melkzuur"], "E290": ["koolzuur"], "E296": ["appelzuur"],
    "E300": ["ascorbinezuur"], "E322": ["sojalecithine", "lecithine"], "E330": ["citroenzuur"],
    "E331": ["natriumcitraat"], "E334": ["wijnsteenzuur"], "E338": ["fosforzuur"], "E407": ["carrageen"],
    "E410": ["johannesbroodpitmeel"], "E412": ["guarpitmeel", "guargom"], "E414": ["arabische gom"],
    "E415": ["xanthaangom"], "E420": ["sorbitol"], "E440": ["pectine"], "E500": ["natriumbicarbonaat"],
    "E621": ["mononatriumglutamaat"], "E950": ["acesulfaam-K"], "E951": ["aspartaam"], "E955": ["sucralose"],
    "E960": ["steviolglycosiden"], "E965": ["maltitol"],
}


# Names the hand check found missing from both lists (goldset/README.md).
EXTRA = {
    "E170": [("es", "carbonato de calcio")], "E500": [("es", "bicarbonato de sodio")],
    "E541": [("en", "sodium aluminum phosphate"), ("en", "sodium aluminium phosphate")],
    "E521": [("en", "sodium aluminum sulfate"), ("en", "sodium aluminium sulphate")],
    "E319": [("en", "TBHQ")], "E320": [("en", "BHA")], "E321": [("en", "BHT")], "E476": [("en", "PGPR")],
    "E432": [("en", "polysorbate 20")], "E433": [("en", "polysorbate 80")], "E435": [("en", "polysorbate 60")],
}


def taxonomy_names(path):
    """(lang, name, code) from the Open Food Facts additive taxonomy, six languages."""
    rows = []
    for block in open(path, encoding="utf-8").read().split("\n\n"):
        lines = [l for l in block.split("\n") if l and not l.startswith("#")]
        if not lines:
            continue
        m = re.match(r"^en:E(\d{3,4})([a-h]?)(?:\(?[ivx]+\)?)?\s*,", lines[0])
        if not m:
            continue
        # Letters only where labels print them (E150d, E160a, E472e); the taxonomy's
        # E307a-style sub-entries compare as their number.
        letter = m.group(2) if int(m.group(1)) in (150, 160, 161, 472, 553, 927) else ""
        code = "E%d%s" % (int(m.group(1)), letter)
        for line in lines:
            mm = re.match(r"^([a-z]{2}):(.*)$", line)
            if not mm or mm.group(1) not in LANGS:
                continue
            for name in mm.group(2).split(","):
                name = name.strip().lstrip("—").strip()
                # Skip code-like entries, formulas and CAS/CI numbers.
                if not name or re.search(r"\d{2,}|^E\s?\d|^INS|^CI\b|^CAS\b", name, re.I):
                    continue
                rows.append((mm.group(1), name, code))
    return rows


def bare_number(text):
    """True when the text has INS-style bare numbers (`(330, 331(i))`): their truth needs a human."""
    for m in re.finditer(r"(?<![A-Za-z0-9.,/])(\d{3,4})(?![0-9%.,/]|\s?(?:g|mg|kg|ml|kj|kcal|°)\b)", text, re.I):
        if 100 <= int(m.group(1)) <= 1599 and not re.search(r"(E|INS)\s?[-*.]?\s?$", text[:m.start()], re.I):
            return True
    return False


def main():
    data = sys.argv[1] if len(sys.argv) > 1 else "/work/shared/data"
    os.makedirs(OUT, exist_ok=True)
    names = []
    seen = set()

    def add(lang, name, code, origin):
        key = (lang, name.lower(), code)
        if key not in seen:
            seen.add(key)
            names.append({"lang": lang, "name": name, "code": code, "origin": origin})

    for line in open(os.path.join(data, "additive-synonyms.jsonl"), encoding="utf-8"):
        r = json.loads(line)
        add(r["lang"], r["name"], r["code"], "ecodex-synonyms")
    for code, ns in DUTCH.items():
        for n in ns:
            add("nl", n, code, "goldset")
    for code, ns in EXTRA.items():
        for lang, n in ns:
            add(lang, n, code, "goldset")
    for lang, name, code in taxonomy_names(os.path.join(data, "off", "additives.txt")):
        add(lang, name, code, "off-taxonomy")
    with open(os.path.join(OUT, "additive-names.jsonl"), "w", encoding="utf-8") as f:
        for r in names:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")

    kept, skipped = [], 0
    for line in open(os.path.join(data, "off", "ingredient-texts.jsonl"), encoding="utf-8"):
        r = json.loads(line)
        if r["lang"] not in LANGS + ("mixed",):
            continue
        if bare_number(r["text"]):
            skipped += 1
            continue
        kept.append(r)
    with open(os.path.join(OUT, "off-texts.jsonl"), "w", encoding="utf-8") as f:
        for i, r in enumerate(kept):
            f.write(json.dumps({"id": "off-%03d" % i, "lang": r["lang"], "text": r["text"], "source": r["source"]},
                               ensure_ascii=False) + "\n")
    print("prepare_sources: %d names, %d OFF texts kept, %d skipped (bare INS numbers)" % (len(names), len(kept), skipped))


if __name__ == "__main__":
    main()
