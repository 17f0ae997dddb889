#!/usr/bin/env python3
"""Prints what the parser finds in each line of a text file, for looking at real labels by eye.

Usage: scripts/parse_dump.py LABELS.txt [--scan BIN] [--region EU]

Each line is scanned as typed text (`scan text LINE --format json`), so this shows what a
shopper would get: the code, how it was matched, the words matched, its function, and the
words left unmatched. BIN defaults to the debug build.
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file")
    ap.add_argument("--scan", default=os.path.join(ROOT, ".build", "debug", "scan"))
    ap.add_argument("--region", default="EU")
    args = ap.parse_args()
    with open(args.file, encoding="utf-8") as f:
        lines = [l.rstrip("\n") for l in f if l.strip()]
    for line in lines:
        p = subprocess.run([args.scan, "text", line, "--format", "json", "--region", args.region],
                           capture_output=True, text=True)
        print("== " + line[:200])
        try:
            result = json.loads(p.stdout)
        except json.JSONDecodeError:
            print("   (no JSON; exit %d) %s" % (p.returncode, p.stderr.strip()[:200]))
            continue
        for a in result.get("additives", []):
            print("   %s %s %s function=%s" % (a.get("code"), a.get("match"),
                                              " | ".join(a.get("matchedText") or []), a.get("function") or "-"))
        if result.get("unmatched"):
            print("   unmatched %s" % result["unmatched"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
