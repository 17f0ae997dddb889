#!/usr/bin/env python3
"""Quick check of a `scan` build on the real development set, per additive.

`scan bench goldset/real-dev/` is the reference (single frame, burst and baseline,
about 6 min). This is the step harness docs/accuracy.md's and docs/history.md's per-step tables come from: it
runs every scored frame (`a.jpg`, or another frame of each video with --frame) as
one `scan … --format json` batch on both cores, or with --burst one `scan burst`
per video (the annotated frame and its neighbours), and scores every additive the
list declares, printed as a code or named (truth ∪ namesOnly, compared at the
level a label writes: E160a(ii) counts as E160a). Frames marked illegible or not
food are skipped, as `scan bench` skips them.

Usage:
    goldset/tools/real_dev_quick.py .build/release/scan [--frame b2] [--burst [--time-limit S]] [--out rows.json]

`--frame all` scores every extracted frame of every video as a single photo (about 300
frames, 4 min): a reading change is measured on five times as many readings. Use it for
small steps: re-encoding the annotated frames alone (JPEG or HEIC at quality 90) moves 4–6
of the 69, so two or three additives up or down on `a` alone are within noise.

`--one-by-one` runs each frame as a `scan` process of its own, one after the other, as a
shopper scans one photo: the times are then whole-process wall times (start, decoding,
reading, parsing), and a photo has both cores to itself (its text blocks are read two at
a time).

Prints one line: frames, TP / FP / FN, precision, recall, F1, and the median and
p95 of the time to result per frame (or per burst). --out writes a row per frame
(found, missed, false alarms, preprocessing steps, OCR confidence) for comparing
two builds. Needs the frames (goldset/tools/extract_real_dev.py).
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "real-dev")


def level(code):
    m = re.match(r"(E\d+[a-z]?)", code)
    return m.group(1) if m else code


def scored():
    with open(os.path.join(ROOT, "truth.jsonl"), encoding="utf-8") as f:
        for line in f:
            t = json.loads(line)
            if t.get("legible") == "none" or t.get("food") is False:
                continue
            yield t


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scan", help="the scan binary")
    ap.add_argument("--frame", default="a",
                    help="which frame of each video (a, b1…b4), or `all`: every frame scored as a single photo")
    ap.add_argument("--burst", action="store_true", help="one `scan burst` per video instead")
    ap.add_argument("--out", help="write a JSON row per frame here")
    ap.add_argument("--one-by-one", action="store_true",
                    help="one `scan` process per frame, one after the other; times are whole-process wall times")
    ap.add_argument("--time-limit", help="with --burst: passed to `scan burst --time-limit` (seconds; 0 = none)")
    args = ap.parse_args()

    rows = []
    if args.burst:
        for t in scored():
            frames = [os.path.join(ROOT, f) for f in [t["file"]] + t.get("burst", [])]
            frames = [f for f in frames if os.path.exists(f)]
            if len(frames) < 2:
                continue
            limit = ["--time-limit", args.time_limit] if args.time_limit is not None else []
            p = subprocess.run([args.scan, "burst", *frames, "--format", "json", "--region", "EU", *limit],
                               capture_output=True, text=True)
            rows.append((t, json.loads(p.stdout) if p.stdout.strip() else {"error": p.stderr[-300:]}))
    else:
        items = []
        positions = ["a", "b1", "b2", "b3", "b4"] if args.frame == "all" else [args.frame]
        for t in scored():
            for position in positions:
                f = os.path.join(ROOT, t["file"].replace("/a.jpg", f"/{position}.jpg"))
                if os.path.exists(f):
                    items.append((dict(t, file=t["file"].replace("/a.jpg", f"/{position}.jpg")), f))
        if args.one_by_one:
            for t, f in items:
                t0 = time.perf_counter()
                p = subprocess.run([args.scan, f, "--format", "json", "--region", "EU"], capture_output=True, text=True)
                wall = (time.perf_counter() - t0) * 1000
                r = json.loads(p.stdout) if p.stdout.strip().startswith("{") else {"error": p.stderr[-300:]}
                r.setdefault("timingsMs", {})["total"] = wall
                rows.append((t, r))
        else:
            p = subprocess.run([args.scan, *[f for _, f in items], "--format", "json", "--region", "EU"],
                               capture_output=True, text=True)
            results = [json.loads(l) for l in p.stdout.splitlines() if l.strip().startswith("{")]
            if len(results) != len(items):
                sys.exit(f"expected {len(items)} results, got {len(results)}: {p.stderr[-500:]}")
            rows = [(t, r) for (t, _), r in zip(items, results)]

    tp = fp = fn = 0
    times, out = [], []
    for t, r in rows:
        truth = {level(c) for c in t["truth"] + t.get("namesOnly", [])}
        found = {level(a["code"]) for a in r.get("additives", [])}
        tp += len(found & truth)
        fp += len(found - truth)
        fn += len(truth - found)
        ms = r.get("timingsMs", {}).get("total", 0)
        times.append(ms)
        out.append({"file": t["file"], "found": sorted(found), "truth": sorted(truth),
                    "falseAlarms": sorted(found - truth), "missed": sorted(truth - found), "ms": ms,
                    "steps": r.get("preprocessing"), "confidence": r.get("ocr", {}).get("meanConfidence"),
                    "frameReadBest": r.get("ocr", {}).get("frame"), "error": r.get("error")})
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    times.sort()
    p95 = times[int(0.95 * (len(times) - 1))] if times else 0
    what = "bursts" if args.burst else "frames"
    print(f"{what} {len(rows)}  TP {tp} FP {fp} FN {fn}  precision {precision:.3f} recall {recall:.3f} "
          f"F1 {f1:.3f}  median {statistics.median(times) / 1000 if times else 0:.2f} s  p95 {p95 / 1000:.2f} s")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
