"""Parse the Open Food Facts additive taxonomy (additives.txt, ODbL 1.0).

Python 3 standard library only. Returns one dict per entry whose canonical
English id is a valid E-number (pseudo-codes such as E14XX are skipped).
"""
import re

CODE_RE = re.compile(r"^E(\d{3,4})([a-z])?(?:\((i|ii|iii|iv|v|vi|vii|viii|ix|x|xi|xii)\))?$")
COUNT_RE = re.compile(r"has\s+(\d+)\s+products|(\d+)\s+products")


def valid_code(code):
    m = CODE_RE.match(code)
    return bool(m) and 100 <= int(m.group(1)) <= 1999


def parse(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    blocks = re.split(r"\n\s*\n", text)
    entries = []
    pending_counts = []  # counts from comment-only blocks, carried to the next entry
    for block in blocks:
        lines = [l.rstrip() for l in block.split("\n") if l.strip()]
        entry = {"names": {}, "props": {}, "parents": [], "counts": []}
        code = None
        for line in lines:
            if line.startswith("#"):
                for m in COUNT_RE.finditer(line):
                    entry["counts"].append(int(m.group(1) or m.group(2)))
                continue
            if line.startswith("<"):
                entry["parents"].append(line[1:].split(":", 1)[1].strip())
                continue
            m = re.match(r"^([a-z_]+):([a-z_]+):\s*(.*)$", line)
            if m and m.group(1) not in ("stopwords", "synonyms"):
                # property line: prop:lang:value
                entry["props"][m.group(1) + ":" + m.group(2)] = m.group(3).strip()
                continue
            m = re.match(r"^([a-z]{2,3}(?:_[a-z]{2})?):\s*(.*)$", line)
            if m:
                lang, rest = m.group(1), m.group(2)
                parts = re.split(r"(?<!\\),", rest)
                names = [n.replace("\\,", ",").strip() for n in parts if n.strip()]
                if lang == "en" and code is None and names:
                    code = names[0]
                entry["names"][lang] = names
        if code is None:
            if entry["counts"]:
                pending_counts.extend(entry["counts"])
            continue
        entry["counts"] += pending_counts
        pending_counts = []
        entry["code"] = code
        entries.append(entry)
    return entries


def label_frequency(entry):
    return max(entry["counts"]) if entry["counts"] else 0


def clean_names(entry, lang):
    """Names in one language without the code itself and OFF placeholders."""
    out = []
    code = entry["code"]
    for n in entry["names"].get(lang, []):
        if n.lower() == code.lower() or n.endswith("food additive"):
            continue
        if re.fullmatch(r"[Ee][\s-]?\d{3,4}[a-z]?(\([ivx]+\))?", n):
            continue
        if n not in out:
            out.append(n)
    return out
