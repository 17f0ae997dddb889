#!/usr/bin/env python3
"""The same labels photographed bigger: do they read as well as their crops?

A shopper who photographs the ingredient list close gets a photo of 1–12 MP with the label
over most of it. The gold set's crops are mostly under 700 px high, so they take the crop
path of the reader, while such a photo takes the camera-frame path (text blocks, or a scene
read whole). This check puts each label of a seeded draw into a 1600×1200 photo of its panel
(the label enlarged to 1440 px wide, centred on its own mean colour), and each real photo of
`goldset/real/` at three times its size, runs a `scan` build on crops and photos as two
batches, and prints found / false / missed per set and the additives each photo lost or
gained against its crop. Labels and panel photos are also turned a quarter (90° and 270° in
turn, no Exif), as a photo taken sideways or a list printed up the side of a pack reaches the
reader. Every additive the label declares counts (truth ∪ namesOnly, at the level a label
writes: E160a(ii) counts as E160a).

Usage:
    goldset/tools/panel_photos.py .build/release/scan [--count 150] [--seed 31] [--work DIR] [--list]

Needs ImageMagick's `convert` (Debian `imagemagick`); the photos are made in --work (a
temporary folder by default) and never committed. About four minutes on 2 cores.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile

GOLD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def level(code):
    m = re.match(r"(E\d+[a-z]?)", code)
    return m.group(1) if m else code


def truth_rows():
    with open(os.path.join(GOLD, "truth.jsonl"), encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def scan(binary, paths):
    """One batch: {file name: set of additive codes at label level}."""
    p = subprocess.run([binary, *paths, "--format", "json", "--region", "EU"], capture_output=True, text=True)
    found = {}
    for line in p.stdout.splitlines():
        if not line.startswith("{"):
            continue
        r = json.loads(line)
        name = os.path.basename(r["input"] if isinstance(r["input"], str) else r["input"]["path"])
        found[name] = {level(a["code"]) for a in r.get("additives", [])}
    missing = [p for p in paths if os.path.basename(p) not in found]
    if missing:
        sys.exit(f"no result for {len(missing)} photos, e.g. {missing[0]}: {p.stderr[-300:]}")
    return found


def score(rows, found):
    tp = fp = fn = 0
    for r in rows:
        truth = {level(c) for c in r["truth"] + r.get("namesOnly", [])}
        got = found[os.path.basename(r["file"])]
        tp += len(got & truth)
        fp += len(got - truth)
        fn += len(truth - got)
    f1 = 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else 1.0
    return f"{tp} / {fp} / {fn} (F1 {f1:.3f})"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scan", help="the scan binary")
    ap.add_argument("--count", type=int, default=150, help="rendered labels drawn (phone frames left out)")
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--work", help="folder for the photos (default: a temporary one)")
    ap.add_argument("--list", action="store_true", help="print each photo that reads differently from its crop")
    args = ap.parse_args()

    rows = truth_rows()
    synth = [r for r in rows if r["file"].startswith("synth/") and "phone_frame" not in r["conditions"]]
    drawn = random.Random(args.seed).sample(synth, min(args.count, len(synth)))
    real = [r for r in rows if r["file"].startswith("real/")]
    work = args.work or tempfile.mkdtemp(prefix="ecodex-panels-")
    os.makedirs(work, exist_ok=True)

    for r in drawn:
        src = os.path.join(GOLD, r["file"])
        mean = subprocess.run(["convert", src, "-resize", "1x1!", "-format", "%[pixel:p{0,0}]", "info:"],
                              capture_output=True, text=True, check=True).stdout.strip()
        subprocess.run(["convert", src, "-filter", "Triangle", "-resize", "1440x1080", "-gravity", "center",
                        "-background", mean, "-extent", "1600x1200", "-quality", "92",
                        os.path.join(work, "panel-" + os.path.basename(src))], check=True)
    for i, r in enumerate(drawn):
        # Turned a quarter, one way or the other, with no Exif to say so.
        for prefix, src in (("turned-", os.path.join(GOLD, r["file"])),
                            ("turned-panel-", os.path.join(work, "panel-" + os.path.basename(r["file"])))):
            subprocess.run(["convert", src, "-rotate", "90" if i % 2 == 0 else "270", "-quality", "92",
                            os.path.join(work, prefix + os.path.basename(r["file"]))], check=True)
    for r in real:
        src = os.path.join(GOLD, r["file"])
        subprocess.run(["convert", src, "-filter", "Triangle", "-resize", "300%", "-quality", "92",
                        os.path.join(work, "x3-" + os.path.basename(src))], check=True)

    sets = [("rendered labels as 1600×1200 panel photos", drawn, "panel-"),
            ("rendered labels turned a quarter", drawn, "turned-"),
            ("panel photos turned a quarter", drawn, "turned-panel-"),
            ("real photos at 3× their size", real, "x3-")]
    read_crops = {}
    for title, chosen, prefix in sets:
        if id(chosen) not in read_crops:
            read_crops[id(chosen)] = scan(args.scan, [os.path.join(GOLD, r["file"]) for r in chosen])
        crops = read_crops[id(chosen)]
        photos = {k[len(prefix):]: v for k, v in
                  scan(args.scan, [os.path.join(work, prefix + os.path.basename(r["file"])) for r in chosen]).items()}
        print(f"{title} ({len(chosen)}): crops {score(chosen, crops)}, photos {score(chosen, photos)}")
        if args.list:
            for r in chosen:
                name = os.path.basename(r["file"])
                truth = {level(c) for c in r["truth"] + r.get("namesOnly", [])}
                if crops[name] != photos[name]:
                    print(f"  {name}: lost {sorted((crops[name] - photos[name]) & truth)}, "
                          f"gained {sorted((photos[name] - crops[name]) & truth)}, "
                          f"false {sorted(photos[name] - truth)}")


if __name__ == "__main__":
    main()
