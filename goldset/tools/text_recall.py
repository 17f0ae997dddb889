#!/usr/bin/env python3
"""Parser-only check on the gold set: every transcribed `text` in goldset/truth.jsonl
through `scan text`, scored against `truth` + `namesOnly` (a code counts when found at
its own level, a parent or a child). Prints precision, recall and every miss.

    swift build && goldset/tools/text_recall.py [--scan .build/debug/scan] [--jobs 2]
"""
import argparse, concurrent.futures as cf, json, os, re, subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scan", default=os.path.join(ROOT, ".build/debug/scan"))
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    rows = [json.loads(l) for l in open(os.path.join(ROOT, "goldset/truth.jsonl")) if l.strip()]
    rows = [r for r in rows if r.get("text")]

    def run(r):
        region = {"CH": "EU"}.get(r.get("region", "EU"), r.get("region", "EU"))
        p = subprocess.run([a.scan, "text", r["text"], "--format", "json", "--region", region],
                           capture_output=True, text=True, timeout=60)
        return r, [x["code"] for x in json.loads(p.stdout)["additives"]]

    with cf.ThreadPoolExecutor(a.jobs) as ex:
        results = list(ex.map(run, rows))
    base = lambda c: re.sub(r"\(.*\)$", "", c)
    hit = lambda w, found: any(x == w or x.startswith(w) or w.startswith(x) for x in found)
    tp = fn = fp = 0
    misses = []
    for r, got in results:
        want = {base(c) for c in r["truth"] + r.get("namesOnly", [])}
        found = {base(c) for c in got}
        for w in sorted(want):
            if hit(w, found):
                tp += 1
            else:
                fn += 1
                misses.append(("missed", r["file"], w))
        for x in sorted(found):
            if not hit(x, want):
                fp += 1
                misses.append(("extra", r["file"], x))
    print("texts %d  tp %d  fn %d  fp %d  precision %.3f  recall %.3f"
          % (len(results), tp, fn, fp, tp / max(1, tp + fp), tp / max(1, tp + fn)))
    for m in misses:
        print(*m)


if __name__ == "__main__":
    main()
