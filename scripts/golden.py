#!/usr/bin/env python3
"""Golden outputs: what a `scan` build answers, recorded once and compared after each change.

A refactor must not change what a shopper sees. This records, for one build, the codes,
badges, reasons and warnings it gives on

    texts    every typed text the tests know (OFF texts and parser cases, OCR texts,
             regional lists, every additive synonym alone), in each of the six regions
    codes    `scan code CODE` (text, all six regions) for every record of the base pack
    gold     every gold-set image (goldset/truth.jsonl), one batch
    realdev  every extracted real development frame (goldset/real-dev/frames/*/*.jpg);
             its file stays out of git, as the frames do

and compares another build against the recording, line by line.

Usage:
    scripts/golden.py record BIN [--sets texts,codes,gold,realdev] [--dir goldset/golden]
    scripts/golden.py compare BIN [--sets ...] [--dir goldset/golden]

`compare` prints each difference (input, recorded, now) and exits 1 when there is one.
Timings, data versions and file paths outside the repository are left out, so two
builds of the same code compare equal. A release build is about three times faster:
`swift build -c release --product scan`, then BIN=.build/release/scan.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
FIXTURES = os.path.join(ROOT, "Tests", "EcodexCoreTests", "Fixtures")
REGIONS = ["EU", "US", "UK", "CA", "AU", "IN"]
SETS = ["texts", "codes", "gold", "realdev"]


def norm(result):
    """What a shopper sees of one result: codes, badges, reasons and warnings."""
    if "error" in result:
        return {"error": result["error"].get("class")}
    return {
        "additives": [
            [a.get("code"), a.get("badge"), a.get("match"), a.get("reasons"), a.get("statement")]
            for a in result.get("additives", [])
        ],
        "unmatched": result.get("unmatched"),
        # Warnings are {code, message} objects (schema 1.0); their words are what a shopper sees.
        "warnings": [w.get("message") if isinstance(w, dict) else w for w in result.get("warnings") or []],
    }


# Answers are recorded for one fixed day, so a dated rule (E127 in the US from 15 Jan 2027) does not
# change them by itself; builds before dated rules take no --as-of.
AS_OF = "2026-11-27"


def day_args(scan):
    p = subprocess.run([scan, "text", "--help"], capture_output=True, text=True)
    return ["--as-of", AS_OF] if "--as-of" in p.stdout else []


def run_lines(cmd, stdin=None):
    # The 8 s recognition limit is wall time: on a busy machine it cuts readings short, so the
    # answers would depend on the load. Recordings and comparisons read every photo in full.
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True, cwd=ROOT,
                       env={**os.environ, "ECODEX_DATA_DIR": DATA_DIR, "ECODEX_CONFIG": CONFIG,
                            "ECODEX_OCR_SECONDS": "600"})
    lines = [json.loads(l) for l in p.stdout.splitlines() if l.strip().startswith("{")]
    return lines, p


def text_set(scan):
    texts = []
    for name in ["ingredient-texts.jsonl", "parser-cases.jsonl", "ocr-texts.jsonl", "regional-lists.jsonl"]:
        with open(os.path.join(FIXTURES, name), encoding="utf-8") as f:
            texts += [(f"{name}:{i}", json.loads(l)["text"]) for i, l in enumerate(f) if l.strip()]
    with open(os.path.join(FIXTURES, "additive-synonyms.jsonl"), encoding="utf-8") as f:
        texts += [(f"synonym:{i}", json.loads(l)["name"]) for i, l in enumerate(f) if l.strip()]
    stdin = "".join(json.dumps({"text": t}) + "\n" for _, t in texts)

    def one(region):
        lines, p = run_lines([scan, "text", "--jsonl", "-", "--format", "json", "--region", region, *day_args(scan)], stdin)
        if len(lines) != len(texts):
            sys.exit(f"golden: {len(lines)} results for {len(texts)} texts in {region}: {p.stderr[:400]}")
        return [{"key": f"{region} {k}", **norm(r)} for (k, _), r in zip(texts, lines)]

    with ThreadPoolExecutor(2) as pool:
        return [row for rows in pool.map(one, REGIONS) for row in rows]


def code_set(scan):
    days = day_args(scan)
    with open(os.path.join(ROOT, "Sources", "EcodexStore", "Resources", "base-pack.json"), encoding="utf-8") as f:
        codes = [a["code"] for a in json.load(f)["additives"]]

    def one(code):
        p = subprocess.run([scan, "code", code, *days], capture_output=True, text=True, cwd=ROOT,
                           env={**os.environ, "ECODEX_DATA_DIR": DATA_DIR, "ECODEX_CONFIG": CONFIG,
                                "NO_COLOR": "1", "COLUMNS": "100"})
        out = [l for l in p.stdout.splitlines() if not l.startswith("Region ")]
        return {"key": code, "exit": p.returncode, "text": out}

    with ThreadPoolExecutor(2) as pool:
        return list(pool.map(one, codes))


def image_set(scan, files):
    rows = []
    for i in range(0, len(files), 64):
        chunk = files[i:i + 64]
        lines, p = run_lines([scan, *chunk, "--format", "json", "--region", "EU", *day_args(scan)])
        if len(lines) != len(chunk):
            sys.exit(f"golden: {len(lines)} results for {len(chunk)} photos: {p.stderr[:400]}")
        rows += [{"key": f, **norm(r)} for f, r in zip(chunk, lines)]
    return rows


def gold_set(scan):
    with open(os.path.join(ROOT, "goldset", "truth.jsonl"), encoding="utf-8") as f:
        files = [os.path.join("goldset", json.loads(l)["file"]) for l in f if l.strip()]
    return image_set(scan, files)


def realdev_set(scan):
    files = sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "goldset", "real-dev", "frames", "*", "*.jpg")))
    if not files:
        sys.exit("golden: no real development frames; run goldset/tools/extract_real_dev.py first")
    return image_set(scan, files)


def path_of(directory, name):
    # The real frames' answers stay out of git with the frames.
    return os.path.join(directory, "real-dev", "realdev.jsonl") if name == "realdev" else os.path.join(directory, f"{name}.jsonl")


def main():
    global DATA_DIR, CONFIG
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["record", "compare"])
    ap.add_argument("scan")
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--dir", default=os.path.join(ROOT, "goldset", "golden"))
    args = ap.parse_args()
    scan = os.path.abspath(args.scan)
    import tempfile
    tmp = tempfile.mkdtemp(prefix="golden-")
    DATA_DIR, CONFIG = os.path.join(tmp, "data"), os.path.join(tmp, "preferences.conf")
    makers = {"texts": text_set, "codes": code_set, "gold": gold_set, "realdev": realdev_set}
    differences = 0
    for name in args.sets.split(","):
        rows = makers[name](scan)
        path = path_of(args.dir, name)
        if args.mode == "record":
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.writelines(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows)
            print(f"{name}: recorded {len(rows)} answers in {os.path.relpath(path, ROOT)}")
            continue
        with open(path, encoding="utf-8") as f:
            recorded = {r["key"]: r for r in map(json.loads, f)}
        now = {r["key"]: r for r in rows}
        diff = [k for k in sorted(set(recorded) | set(now)) if recorded.get(k) != now.get(k)]
        for k in diff:
            print(f"{name} {k}\n  recorded: {json.dumps(recorded.get(k), ensure_ascii=False)}\n  now:      {json.dumps(now.get(k), ensure_ascii=False)}")
        print(f"{name}: {len(now)} answers, {len(diff)} differ")
        differences += len(diff)
    sys.exit(1 if differences else 0)


DATA_DIR = CONFIG = None
if __name__ == "__main__":
    main()
