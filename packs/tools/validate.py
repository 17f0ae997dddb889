#!/usr/bin/env python3
"""Validate packs/base: schema, codes, parents, references, names and plain-risk lines.

Usage: python3 packs/tools/validate.py [--quiet]
Exit status 0 when every check passes; the coverage report goes to stdout.
Needs the `jsonschema` package (Draft 2020-12).
"""
import json
import os
import re
import sys
from collections import Counter, defaultdict

import jsonschema

HERE = os.path.dirname(os.path.abspath(__file__))
PACKS = os.path.dirname(HERE)
BASE = os.path.join(PACKS, "base")
REGIONS = ["EU", "US", "UK", "CA", "AU", "IN"]
CORE_LANGS = ["en", "de", "fr", "es", "it", "nl", "us"]
MAX_WORDS = 18
MAX_GRADE = 6.0
BANNED = re.compile(r"\b(safe|unsafe|safely|safety)\b", re.IGNORECASE)
PRIMARY_HOSTS = ("eur-lex.europa.eu", "legislation.gov.uk", "ecfr.gov", "govinfo.gov", "fda.gov", "canada.ca",
                 "laws.justice.gc.ca", "legislation.gov.au", "foodstandards.gov.au", "fssai.gov.in",
                 "efsa.europa.eu", "doi.org", "fao.org", "accc.gov.au", "productsafety.gov.au",
                 "foodstandards.gov.scot")


def syllables(word):
    """Heuristic English syllable count (vowel groups, silent e, -le, minimum 1)."""
    w = re.sub(r"[^a-z]", "", word.lower())
    if not w:
        return 0
    if len(w) <= 3:
        return 1
    w = re.sub(r"(?:[^laeiouy]es|[^laeiouy]ed|[^laeiouy]e)$", "", w)
    w = re.sub(r"^y", "", w)
    groups = re.findall(r"[aeiouy]{1,2}", w)
    return max(1, len(groups))


def words_of(text):
    return [w for w in re.findall(r"[A-Za-z0-9][A-Za-z0-9'’&-]*", text)]


def fk_grade(text):
    """Flesch-Kincaid grade level: 0.39 (words/sentences) + 11.8 (syllables/words) - 15.59."""
    sentences = max(1, len([s for s in re.split(r"[.!?]+", text) if s.strip()]))
    ws = words_of(text)
    if not ws:
        return 0.0
    syl = 0
    for w in ws:
        # hyphenated words count by part; numbers and codes count as one syllable per part
        for part in w.split("-"):
            syl += syllables(part) if re.search(r"[A-Za-z]", part) else 1
    return 0.39 * (len(ws) / sentences) + 11.8 * (syl / len(ws)) - 15.59


QUOTED = re.compile(r"\u201c[^\u201d]*\u201d")


def condition_problems(text):
    """Why a rule's conditions line fails the plain-language check (as `scan pack validate`).
    A label statement quoted in curly quotes is the regulator's wording, not ours: not counted."""
    ours = QUOTED.sub("", text)
    problems = []
    n = sum(1 for t in ours.split() if re.search(r"[^\W_]", t))  # white-space tokens with a letter or digit
    if n > MAX_WORDS:
        problems.append("has %d words (max %d)" % (n, MAX_WORDS))
    g = fk_grade(ours)
    if g > MAX_GRADE:
        problems.append("grade %.1f > %.1f" % (g, MAX_GRADE))
    return problems


def is_primary(url):
    host = re.sub(r"^https?://(www\d?\.)?", "", url).split("/")[0]
    return any(host == h or host.endswith("." + h) for h in PRIMARY_HOSTS)


def main():
    quiet = "--quiet" in sys.argv
    errors = []
    schema = json.load(open(os.path.join(PACKS, "schema", "additive.schema.json"), encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)

    pack = json.load(open(os.path.join(BASE, "pack.json"), encoding="utf-8"))
    if not re.fullmatch(r"\d+\.\d+\.\d+", pack.get("version", "")):
        errors.append("pack.json: version must be semantic (x.y.z)")
    if not set(pack.get("regions", [])) <= set(REGIONS):
        errors.append("pack.json: unknown region")

    ambiguous = json.load(open(os.path.join(BASE, "ambiguous-names.json"), encoding="utf-8"))["names"]
    allowed_shared = {a["name"] for a in ambiguous if a.get("allow_shared")}

    recs = {}
    adir = os.path.join(BASE, "additives")
    for fn in sorted(os.listdir(adir)):
        if not fn.endswith(".json"):
            continue
        path = os.path.join(adir, fn)
        raw = open(path, encoding="utf-8").read()
        try:
            rec = json.loads(raw)
        except ValueError as e:
            errors.append("%s: not JSON (%s)" % (fn, e))
            continue
        canon = json.dumps(rec, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
        if raw != canon:
            errors.append("%s: not in canonical form (2-space indent, sorted keys, trailing newline)" % fn)
        for err in validator.iter_errors(rec):
            errors.append("%s: schema: %s at %s" % (fn, err.message, "/".join(map(str, err.path))))
        code = rec.get("code", "")
        if re.fullmatch(r"E\d+[vx]", code):
            errors.append("%s: letter suffix v/x reads as a roman sub-form in ECode" % fn)
        expected = code.replace("(", "_").replace(")", "") + ".json"
        if fn != expected:
            errors.append("%s: file name should be %s" % (fn, expected))
        if code in recs:
            errors.append("%s: duplicate code %s" % (fn, code))
        recs[code] = rec

    name_owner = defaultdict(set)
    grades = []
    word_counts = []
    for code, rec in recs.items():
        p = rec.get("parent")
        if p is not None and p not in recs:
            errors.append("%s: parent %s does not exist" % (code, p))
        if p == code:
            errors.append("%s: is its own parent" % code)
        refs = rec.get("references", [])
        if not refs:
            errors.append("%s: no reference" % code)
        elif not any(is_primary(r["url"]) for r in refs):
            errors.append("%s: no primary reference (regulation, EFSA, eCFR, Codex...)" % code)
        for reg, rule in rec.get("region_rules", {}).items():
            for k in ("conditions", "statement"):
                if BANNED.search(rule.get(k, "")):
                    errors.append("%s/%s: %s uses a banned word (safe/unsafe)" % (code, reg, k))
            if rule.get("statement") and not rule.get("warning_required"):
                errors.append("%s/%s: statement without warning_required" % (code, reg))
            if "reference" not in rule:
                errors.append("%s/%s: rule has no reference" % (code, reg))
            for side, terms in (("", rule), ("before.", rule.get("before") or {}), ("after.", rule.get("after") or {})):
                for problem in condition_problems(terms.get("conditions") or ""):
                    errors.append("%s/%s: %sconditions %s: %s" % (code, reg, side, problem, terms["conditions"]))
        summary = rec.get("plain_risk", {}).get("summary", "")
        n = len(words_of(summary))
        g = fk_grade(summary)
        word_counts.append(n)
        grades.append(g)
        if n > MAX_WORDS:
            errors.append("%s: plain_risk has %d words (max %d): %s" % (code, n, MAX_WORDS, summary))
        if g > MAX_GRADE:
            errors.append("%s: plain_risk grade %.1f > %.1f: %s" % (code, g, MAX_GRADE, summary))
        for field in (summary, rec.get("concern") or ""):
            if BANNED.search(field):
                errors.append("%s: uses a banned word (safe/unsafe): %s" % (code, field))
        if rec.get("evidence_level") == "Consensus" and not rec.get("concern"):
            errors.append("%s: Consensus needs a concern" % code)
        for lang, names in rec.get("names", {}).items():
            lowered = [x.lower() for x in names]
            if len(set(lowered)) != len(lowered):
                errors.append("%s: duplicate name in %s" % (code, lang))
            for x in set(lowered):
                name_owner[x].add(code)
        for x in rec.get("context_names", []):
            name_owner[x.lower()].add(code)
    for name, owners in sorted(name_owner.items()):
        if len(owners) > 1 and name not in allowed_shared:
            errors.append("name %r is shared by %s and not listed as ambiguous" % (name, sorted(owners)))

    # coverage report
    print("records: %d" % len(recs))
    lang_count = Counter()
    for rec in recs.values():
        for lang in rec["names"]:
            lang_count[lang] += 1
    print("records with names per language: " + ", ".join("%s %d" % (l, lang_count[l]) for l in CORE_LANGS))
    print("  (all languages: %d)" % len(lang_count))
    reg_count = Counter()
    for rec in recs.values():
        for reg in rec["region_rules"]:
            reg_count[reg] += 1
    print("rules per region: " + ", ".join("%s %d" % (r, reg_count[r]) for r in REGIONS))
    print("records with all six regions: %d" % sum(1 for r in recs.values() if len(r["region_rules"]) == 6))
    ev = Counter(r["evidence_level"] for r in recs.values())
    print("evidence levels: " + ", ".join("%s %d" % kv for kv in sorted(ev.items())))
    print("plain_risk: mean %.1f words (max %d), mean grade %.1f (max %.1f)" % (
        sum(word_counts) / len(word_counts), max(word_counts), sum(grades) / len(grades), max(grades)))
    top = sorted(recs.values(), key=lambda r: (-r["label_frequency"], r["code"]))[:60]
    both = sum(1 for r in top if "EU" in r["region_rules"] and "US" in r["region_rules"])
    print("top 60 by label_frequency with EU and US rules: %d/60" % both)
    if errors:
        print("\n%d problem(s):" % len(errors))
        for e in errors[: (20 if quiet else len(errors))]:
            print("  " + e)
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
