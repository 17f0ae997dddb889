#!/usr/bin/env python3
"""How much of the real gold photos' printed text the reader reads (goldset/real).

Usage: scripts/ocr_recall.py [--scan BIN] [--out texts.json]

Reads every photo in goldset/real with `scan --format json --show-text` (every photo in full:
ECODEX_OCR_SECONDS=600) and scores the text as read against the hand transcriptions in
goldset/real/manifest.jsonl:

    word recall   truth words (lower-cased letters and digits) found in the text, counted with
                  multiplicity, over all photos (micro) and as the mean per photo
    E-codes       each printed code found as E + digits, with or without spaces, exactly as printed

`--out` writes the text read per photo as JSON, for judging preprocessing by measurement.
Reading knobs (`ECODEX_DEBUG_DIR`, `--lang`) are the program's own; see docs/how-it-works.md.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
REAL = os.path.join(ROOT, "goldset", "real")


def words(s):
    return [w for w in re.split(r"[^\w]+", s.lower()) if w and not w.startswith("_")]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scan", default=os.path.join(ROOT, ".build", "debug", "scan"))
    ap.add_argument("--out")
    args = ap.parse_args()
    with open(os.path.join(REAL, "manifest.jsonl"), encoding="utf-8") as f:
        entries = [json.loads(l) for l in f if l.strip()]
    files = [os.path.join(REAL, e["file"]) for e in entries]
    with tempfile.TemporaryDirectory() as data:
        env = {**os.environ, "ECODEX_DATA_DIR": data, "ECODEX_CONFIG": os.path.join(data, "none.conf"),
               "ECODEX_OCR_SECONDS": "600"}
        p = subprocess.run([args.scan, *files, "--format", "json"], capture_output=True, text=True, env=env)
    results = [json.loads(l) for l in p.stdout.splitlines() if l.strip().startswith("{")]
    if len(results) != len(files):
        sys.exit("ocr_recall: %d results for %d photos: %s" % (len(results), len(files), p.stderr[:400]))
    texts = {e["file"]: ((r.get("ocr") or {}).get("text") or "") for e, r in zip(entries, results)}
    truth_words = found_words = printed = found_codes = 0
    per_photo = []
    for e in entries:
        text = re.sub(r"[⟨⟩]", "", texts[e["file"]])
        truth = e.get("truth_text_if_any") or ""
        if truth.startswith("(") and ")" in truth:
            truth = truth[truth.index(")") + 1:]   # a note about the photo, not label text
        have = {}
        for w in words(text):
            have[w] = have.get(w, 0) + 1
        want = words(truth)
        found = 0
        for w in want:
            if have.get(w, 0) > 0:
                have[w] -= 1
                found += 1
        truth_words += len(want)
        found_words += found
        per_photo.append(found / len(want) if want else 0.0)
        compact = text.upper().replace(" ", "")
        for code in e.get("e_codes_printed") or []:
            printed += 1
            found_codes += code.upper() in compact
    print("goldset/real: %d photos, words found %.3f (micro) %.3f (mean per photo), printed E-codes %d/%d"
          % (len(entries), found_words / max(1, truth_words), sum(per_photo) / max(1, len(per_photo)), found_codes, printed))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(texts, f, ensure_ascii=False, sort_keys=True, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
