#!/usr/bin/env python3
"""The real development set's table: single frame, burst, union of frames, prompt rates.

Reads every extracted frame of every scored video as a single photo (one `scan` batch on
both cores), then each video's frames as one `scan burst`, and prints one table:

- single frame: the annotated frame `a.jpg` alone;
- burst: `scan burst a.jpg b1.jpg …` (the annotated frame and its neighbours);
- union of frames: the frames read one by one, every additive any of them found;
- two frames or more: the frames read one by one, additives found in at least two;
- prompt rates over all frames read as single photos: of the frames read completely, the
  share told to rescan; of the frames read incompletely, the share told nothing.

A frame is read completely when it found every additive the list declares and read at least
`--complete-recall` of the list's words (our transcription `text`, one of its languages);
otherwise incompletely. A prompt is a warning whose code is a rescan cause (`RESCAN`).

Usage:
    goldset/tools/real_dev_report.py .build/release/scan [--out report.json] [--no-burst]
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from real_dev_quick import ROOT, level, scored  # noqa: E402

# Warning codes that ask the shopper to take the photo again (docs/json.md).
RESCAN = {"hard-to-read", "print-too-small", "reading-stopped", "blurred", "glare", "curved-text",
          "too-dark", "rescan"}
POSITIONS = ["a", "b1", "b2", "b3", "b4"]


def words(text):
    folded = unicodedata.normalize("NFKD", text.lower())
    folded = "".join(c for c in folded if not unicodedata.combining(c))
    return [w for w in re.findall(r"[a-z]+", folded) if len(w) >= 4]


def near(a, b):
    """Edit distance at most 1 (words of 6 letters or more), else equal."""
    if a == b:
        return True
    if min(len(a), len(b)) < 6 or abs(len(a) - len(b)) > 1:
        return False
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    return a[i + 1:] == b[i + 1:] or a[i + 1:] == b[i:] or a[i:] == b[i + 1:]


def list_recall(truth_text, ocr_text):
    want = set(words(truth_text))
    if not want:
        return 1.0
    got = set(words(ocr_text or ""))
    hit = sum(1 for w in want if w in got or any(near(w, g) for g in got))
    return hit / len(want)


def prf(tp, fp, fn):
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def codes(report):
    return {level(a["code"]) for a in report.get("additives", [])}


def score(pairs):
    tp = fp = fn = 0
    for truth, found in pairs:
        tp += len(found & truth)
        fp += len(found - truth)
        fn += len(truth - found)
    return tp, fp, fn


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scan")
    ap.add_argument("--out", help="write every frame's and burst's row here (JSON)")
    ap.add_argument("--no-burst", action="store_true")
    ap.add_argument("--time-limit", help="passed to `scan burst --time-limit`")
    ap.add_argument("--complete-recall", type=float, default=0.6,
                    help="share of the list's words a complete reading holds (default 0.6)")
    args = ap.parse_args()

    videos = list(scored())
    items = []
    for t in videos:
        for pos in POSITIONS:
            f = os.path.join(ROOT, t["file"].replace("/a.jpg", f"/{pos}.jpg"))
            if os.path.exists(f):
                items.append((t, pos, f))
    p = subprocess.run([args.scan, *[f for _, _, f in items], "--format", "json", "--region", "EU"],
                       capture_output=True, text=True)
    results = [json.loads(l) for l in p.stdout.splitlines() if l.strip().startswith("{")]
    if len(results) != len(items):
        sys.exit(f"expected {len(items)} results, got {len(results)}: {p.stderr[-500:]}")

    frames = {}
    rows = []
    complete = prompted_complete = incomplete = silent_incomplete = 0
    for (t, pos, _), r in zip(items, results):
        truth = {level(c) for c in t["truth"] + t.get("namesOnly", [])}
        found = codes(r)
        recall = list_recall(t.get("text", ""), (r.get("ocr") or {}).get("text", ""))
        warned = sorted({w["code"] for w in r.get("warnings", [])} & RESCAN)
        is_complete = truth <= found and recall >= args.complete_recall
        if is_complete:
            complete += 1
            prompted_complete += bool(warned)
        else:
            incomplete += 1
            silent_incomplete += not warned
        frames.setdefault(t["file"], []).append((pos, found, r))
        rows.append({"file": t["file"].replace("/a.jpg", f"/{pos}.jpg"), "truth": sorted(truth),
                     "found": sorted(found), "listRecall": round(recall, 3), "complete": is_complete,
                     "prompts": warned, "warnings": [w["code"] for w in r.get("warnings", [])],
                     "status": r.get("status"), "confidence": (r.get("ocr") or {}).get("meanConfidence"),
                     "printHeight": (r.get("ocr") or {}).get("printHeight"), "capture": (r.get("ocr") or {}).get("capture"),
                     "words": len(((r.get("ocr") or {}).get("text") or "").split()),
                     "ms": r.get("timingsMs", {}).get("total", 0)})

    table = []
    truths = {t["file"]: {level(c) for c in t["truth"] + t.get("namesOnly", [])} for t in videos}
    single = [(truths[f], next((fd for pos, fd, _ in fs if pos == "a"), set())) for f, fs in frames.items()]
    single_ms = [r.get("timingsMs", {}).get("total", 0) for f, fs in frames.items() for pos, _, r in fs if pos == "a"]
    table.append(("single frame (a.jpg)", len(single), score(single), single_ms))
    union = [(truths[f], set().union(*[fd for _, fd, _ in fs])) for f, fs in frames.items()]
    table.append(("union of frames, one by one", len(union), score(union), None))
    two = []
    for f, fs in frames.items():
        counts = {}
        for _, fd, _ in fs:
            for c in fd:
                counts[c] = counts.get(c, 0) + 1
        two.append((truths[f], {c for c, n in counts.items() if n >= 2}))
    table.append(("found in two frames or more", len(two), score(two), None))

    bursts = []
    if not args.no_burst:
        burst_pairs, burst_ms = [], []
        for t in videos:
            paths = [os.path.join(ROOT, t["file"].replace("/a.jpg", f"/{pos}.jpg")) for pos in POSITIONS]
            paths = [x for x in paths if os.path.exists(x)]
            limit = ["--time-limit", args.time_limit] if args.time_limit is not None else []
            t0 = time.perf_counter()
            q = subprocess.run([args.scan, "burst", *paths, "--format", "json", "--region", "EU", *limit],
                               capture_output=True, text=True)
            wall = (time.perf_counter() - t0) * 1000
            r = json.loads(q.stdout) if q.stdout.strip().startswith("{") else {}
            found = codes(r)
            burst_pairs.append((truths[t["file"]], found))
            burst_ms.append(wall)
            bursts.append({"file": t["file"], "frames": len(paths), "truth": sorted(truths[t["file"]]),
                           "found": sorted(found), "wallMs": round(wall),
                           "prompts": sorted({w["code"] for w in r.get("warnings", [])} & RESCAN)})
        table.append(("burst (`scan burst`, whole process)", len(burst_pairs), score(burst_pairs), burst_ms))

    print(f"{'reading':40} {'n':>4} {'TP':>4} {'FP':>4} {'FN':>4} {'P':>6} {'R':>6} {'F1':>6} {'median s':>9} {'p95 s':>6}")
    for name, n, (tp, fp, fn), ms in table:
        pr, rc, f1 = prf(tp, fp, fn)
        if ms:
            ms = sorted(ms)
            timing = f"{statistics.median(ms) / 1000:9.2f} {ms[int(0.95 * (len(ms) - 1))] / 1000:6.2f}"
        else:
            timing = f"{'–':>9} {'–':>6}"
        print(f"{name:40} {n:4} {tp:4} {fp:4} {fn:4} {pr:6.3f} {rc:6.3f} {f1:6.3f} {timing}")
    print(f"prompts on all {len(items)} frames: complete {complete}, of them prompted {prompted_complete} "
          f"({prompted_complete / max(complete, 1):.0%}); incomplete {incomplete}, of them not prompted "
          f"{silent_incomplete} ({silent_incomplete / max(incomplete, 1):.0%})")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump({"frames": rows, "bursts": bursts}, f, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
