#!/usr/bin/env python3
"""Writes Tests/EcodexCoreTests/Fixtures/ocr-texts.jsonl: ingredient lists as Tesseract
actually reads them through `scan`, from the gold set's real photos (`real`) and phone-frame
renders (`phone_frame`), each with the image's truth. The parser test `OCRTextSetTests`
scores the parser on this text with no OCR cost. Re-run after a reading change, then check
the floors in that test (they only go up).

Only the gold set's own images are read: real photos whose licences allow it (goldset/real/NOTICE)
and our renders. Frames of the real development set have no licence and are never used here.

    swift build -c release --product scan && goldset/tools/make_ocr_texts.py [--scan .build/release/scan]
"""
import argparse, concurrent.futures as cf, json, os, subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "Tests/EcodexCoreTests/Fixtures/ocr-texts.jsonl")
CONDITIONS = {"real", "phone_frame"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scan", default=os.path.join(ROOT, ".build/release/scan"))
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    rows = [json.loads(l) for l in open(os.path.join(ROOT, "goldset/truth.jsonl")) if l.strip()]
    rows = [r for r in rows if CONDITIONS & set(r.get("conditions", []))]

    def read(r):
        path = os.path.join(ROOT, "goldset", r["file"])
        env = dict(os.environ, OMP_THREAD_LIMIT="1")
        p = subprocess.run([a.scan, path, "--format", "json", "--region", "EU"], capture_output=True,
                           text=True, timeout=120, env=env)
        try:
            text = json.loads(p.stdout.splitlines()[0])["ocr"]["text"]
        except (IndexError, KeyError, TypeError, ValueError):
            text = ""
        # `ocr.text` marks unsure words ⟨like this⟩; the set keeps the plain reading.
        return {"file": r["file"], "conditions": r["conditions"], "lang": r.get("lang"),
                "text": text.replace("⟨", "").replace("⟩", ""),
                "truth": r["truth"], "namesOnly": r.get("namesOnly", [])}

    with cf.ThreadPoolExecutor(a.jobs) as ex:
        out = list(ex.map(read, rows))
    with open(OUT, "w", encoding="utf-8") as f:
        for o in out:
            f.write(json.dumps(o, ensure_ascii=False, sort_keys=True) + "\n")
    print("wrote %d OCR texts to %s" % (len(out), os.path.relpath(OUT, ROOT)))


if __name__ == "__main__":
    main()
