#!/usr/bin/env python3
"""Lists the words of Tesseract's word lists that `scan text` reads as an additive by a slip.

A word of a label language one slip from an additive's name (`destiné` / `destrine`, Dutch
`zoetzuur` / `zoutzuur`) is read as that additive unless the parser knows it as a word of its
own (`words_of_their_own` in `packs/base/languages.json`). This script finds such words: it
unpacks the word lists of the installed Tesseract models (`combine_tessdata -u`,
`dawg2wordlist`, both in Debian's tesseract-ocr), keeps the words of seven letters or more
(shorter names get no slip), runs each alone through `scan text --jsonl`, and prints every
word read as an additive by a slip (`match` other than `name` and `code`), with the additive.
Review the list: a word that names the additive (`Chlorophyl`, `butaangas`) stays readable; a
word of its own goes into `words_of_their_own` in packs/base/languages.json.

    swift build -c release --product scan
    goldset/tools/slip_audit.py [--scan .build/release/scan] [--models eng,deu,fra,ita,spa,nld,Latin]

The Latin-script model's list has 3.9 million such words and takes about 15 minutes; the six
language lists together about 4 minutes.
"""
import argparse, json, os, subprocess, sys, tempfile, unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TESSDATA = "/usr/share/tesseract-ocr/5/tessdata"


def words(model, tmp):
    prefix = os.path.join(tmp, model + ".")
    subprocess.run(["combine_tessdata", "-u", os.path.join(TESSDATA, model + ".traineddata"), prefix],
                   check=True, capture_output=True)
    out = prefix + "words"
    subprocess.run(["dawg2wordlist", prefix + "lstm-unicharset", prefix + "lstm-word-dawg", out],
                   check=True, capture_output=True)
    with open(out, encoding="utf-8", errors="ignore") as f:
        for w in f:
            w = w.strip()
            if len(w) >= 7 and w.isalpha():
                yield w


def fold(w):
    return "".join(c for c in unicodedata.normalize("NFD", w.upper()) if unicodedata.category(c) != "Mn")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scan", default=os.path.join(ROOT, ".build/release/scan"))
    ap.add_argument("--models", default="eng,deu,fra,ita,spa,nld")
    a = ap.parse_args()
    seen, found = set(), {}
    with tempfile.TemporaryDirectory() as tmp:
        for model in a.models.split(","):
            batch = [w for w in words(model, tmp) if fold(w) not in seen]
            seen.update(fold(w) for w in batch)
            p = subprocess.run([a.scan, "text", "--jsonl", "-", "--format", "json"], capture_output=True, text=True,
                               input="".join(json.dumps({"text": w}) + "\n" for w in batch))
            for w, line in zip(batch, p.stdout.splitlines()):
                for m in json.loads(line).get("additives", []):
                    if m["match"] not in ("name", "code"):
                        found.setdefault(fold(w), (w, model, m["code"], m["name"]))
            print("%s: %d words, %d read as an additive by a slip so far" % (model, len(batch), len(found)),
                  file=sys.stderr)
    for key in sorted(found):
        w, model, code, name = found[key]
        print("%s\t%s\t%s\t%s" % (w, model, code, name))


if __name__ == "__main__":
    main()
