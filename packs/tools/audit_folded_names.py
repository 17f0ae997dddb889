#!/usr/bin/env python3
"""Names of other languages that read as an ordinary word of a label language.

The parser folds accents and case, so a name from a language Ecodex does not read labels
in can land on a common word of one it does: Catalan "Carotè" (E160a) is Italian
"carote" (carrots), Turkish "Üre" (E927b) is "ure". This lists every one-word name of a
language other than en/de/fr/es/it/nl whose folded spelling is a word in the word list
of Tesseract's model for one of those six, and is not a name of the same additive in any
of them. Each row is a candidate for `records.<CODE>.ctx` in curated.json (a context
name: it counts only after a class word of its own function); names that are the
additive in the label language too (Karmin, lecitina) are for a person to leave alone.
Names already context-only are not listed.

Usage:
    python3 packs/tools/audit_folded_names.py [--tessdata /usr/share/tesseract-ocr/5/tessdata]
        [--reviewed packs/base/folded-names-reviewed.tsv]

With --reviewed it prints only the candidates that file does not list (code, language and
name, tab-separated) and exits 1 when there is any: a test runs it so that a new import of
the taxonomy cannot bring such a name in unreviewed.

Needs Tesseract's combine_tessdata and dawg2wordlist (Debian package tesseract-ocr) and
the six language models (scripts/install-deps.sh installs them). Standard library only.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
RECORDS = os.path.join(HERE, "..", "base", "additives")
LABEL = {"en": "eng", "de": "deu", "fr": "fra", "es": "spa", "it": "ita", "nl": "nld"}


def fold(s):
    s = unicodedata.normalize("NFKD", s.lower()).replace("ß", "ss")
    return "".join(ch for ch in s if not unicodedata.combining(ch))


def word_list(tessdata, lang, tmp):
    """The words of a model's LSTM dictionary, folded."""
    prefix = os.path.join(tmp, lang + ".")
    subprocess.run(["combine_tessdata", "-u", os.path.join(tessdata, lang + ".traineddata"), prefix],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out = prefix + "words.txt"
    subprocess.run(["dawg2wordlist", prefix + "lstm-unicharset", prefix + "lstm-word-dawg", out],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(out, encoding="utf-8") as f:
        return {fold(w) for w in f.read().split()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tessdata", default="/usr/share/tesseract-ocr/5/tessdata")
    ap.add_argument("--reviewed", help="names reviewed and left as they are (tab-separated code, language, name)")
    a = ap.parse_args()
    reviewed = set()
    if a.reviewed:
        with open(a.reviewed, encoding="utf-8") as f:
            reviewed = {tuple(line.rstrip("\n").split("\t")[:3]) for line in f if line.strip() and not line.startswith("#")}
    with tempfile.TemporaryDirectory() as tmp:
        words = {l2: word_list(a.tessdata, l3, tmp) for l2, l3 in LABEL.items()}
    rows = []
    for path in sorted(glob.glob(os.path.join(RECORDS, "*.json"))):
        with open(path, encoding="utf-8") as f:
            rec = json.load(f)
        context = {n.lower() for n in rec.get("context_names", [])}
        own = {fold(n) for lang in LABEL for n in rec["names"].get(lang, [])}
        for lang, names in sorted(rec["names"].items()):
            if lang in LABEL or lang == "us":
                continue
            for n in names:
                folded = fold(n)
                if " " in folded or "-" in folded or n.lower() in context or folded in own:
                    continue
                hits = [l2 for l2 in LABEL if folded in words[l2]]
                if hits and (rec["code"], lang, n) not in reviewed:
                    rows.append((rec["code"], lang, n, folded, ",".join(hits)))
    for r in rows:
        print("\t".join(r))
    print(f"{len(rows)} candidates" + (" not reviewed" if a.reviewed else ""), file=sys.stderr)
    return 1 if a.reviewed and rows else 0


if __name__ == "__main__":
    sys.exit(main())
