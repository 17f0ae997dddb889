#!/usr/bin/env python3
"""Parser checks through `scan text` and the shipped store, as the shopper runs it:

- `off`: Open Food Facts' own additive-parser cases (non-conflicting), compared at the
  E-number level (`e160ai` and `E160a` are both 160); prints every disagreement.
- `synonyms`: every name of the shared synonym list as `Sugar, NAME, salt`, then after a
  generic header (`Sugar, food additive: NAME, salt`) for names that need context.

    swift build && goldset/tools/parser_cases.py [off|synonyms|all] [--scan .build/debug/scan] [--jobs 2]
"""
import argparse, concurrent.futures as cf, json, os, re, subprocess, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "Tests/EcodexCoreTests/Fixtures")


def rows(name):
    return [json.loads(l) for l in open(os.path.join(FIXTURES, name)) if l.strip()]


def number(code):
    """`e160ai` → 160, `E14XX` → None (OFF's family tag for modified starches)."""
    m = re.match(r"[eE](\d+)", code)
    return int(m.group(1)) if m and int(m.group(1)) >= 100 else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("what", nargs="?", default="all", choices=["off", "synonyms", "all"])
    ap.add_argument("--scan", default=os.path.join(ROOT, ".build/debug/scan"))
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    # A private store, so that a run never touches the user's data folder.
    # It is removed when the run ends.
    scratch = tempfile.TemporaryDirectory(prefix="ecodex-cases-")
    env = dict(os.environ, ECODEX_DATA_DIR=scratch.name)
    subprocess.run([a.scan, "code", "E330"], env=env, capture_output=True)

    def codes(text):
        p = subprocess.run([a.scan, "text", "-", "--format", "json", "--region", "EU"], input=text,
                           env=env, capture_output=True, text=True, timeout=60)
        return [x["code"] for x in json.loads(p.stdout).get("additives", [])]

    with cf.ThreadPoolExecutor(a.jobs) as ex:
        if a.what in ("off", "all"):
            cases = [r for r in rows("parser-cases.jsonl") if not r.get("conflict")]
            got = list(ex.map(lambda r: codes(r["text"]), cases))
            agreed = 0
            for r, g in zip(cases, got):
                want = {n for n in map(number, r["expected"]) if n}
                have = {n for n in map(number, g) if n}
                if want == have:
                    agreed += 1
                else:
                    print("OFF disagree %s: missing %s extra %s" % (r.get("test_id", r["text"][:40]),
                                                                   sorted(want - have), sorted(have - want)))
            print("OFF parser agreement through scan text: %d/%d" % (agreed, len(cases)))
        if a.what in ("synonyms", "all"):
            syn = rows("additive-synonyms.jsonl")

            def finds(r):
                base = number(r["code"])
                for text in ("Sugar, %s, salt" % r["name"], "Sugar, food additive: %s, salt" % r["name"]):
                    if base in {number(c) for c in codes(text)}:
                        return True
                return False

            hits = list(ex.map(finds, syn))
            for r, h in zip(syn, hits):
                if not h:
                    print("synonym miss: %s → %s" % (r["name"], r["code"]))
            print("synonym recall through scan text: %d/%d = %.1f%%" % (sum(hits), len(syn), 100 * sum(hits) / len(syn)))


if __name__ == "__main__":
    main()
