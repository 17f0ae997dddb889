#!/usr/bin/env python3
"""Checks the README and docs/ for a newcomer: size, no lab-notebook references, live links.

  scripts/check_docs.py            # from the repository root, or give it the root: check_docs.py ROOT

Fails (exit 1, one line per problem) when
  - README.md has more than 300 lines;
  - README.md or a docs/*.md other than docs/history.md names a numbered session, run or issue
    (`session 14`, `run 3`, `issue 16`, `#16`): those belong in docs/history.md, the one log;
  - a relative link or #anchor in README.md or docs/*.md does not resolve (a missing file, or a
    heading that is not there; anchors are GitHub's: lowercase, spaces to -, punctuation dropped).
Code blocks and `code spans` are not searched for references (`FD&C Red #40` is a label's
text), and links to http(s) and mailto addresses are not fetched.
"""
import re
import sys
from pathlib import Path

MAX_README_LINES = 300

REFERENCE = re.compile(
    r"\b(?:sessions?|runs?|issues?)\s+(?:no\.?\s*)?#?\d+\b"  # session 14, issue 16, run 3, issue #7
    r"|(?<![\w&#/])#\d+\b",                                   # #16
    re.IGNORECASE,
)
FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def prose_lines(text):
    """Yields (line number, line) outside fenced code blocks, with code spans blanked."""
    fenced = False
    for number, line in enumerate(text.split("\n"), start=1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield number, CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)


def slug(heading):
    """GitHub's anchor for a heading: markup dropped, lowercase, punctuation dropped, spaces to -."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links keep their text
    text = text.replace("`", "").replace("*", "")
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)  # \w keeps letters of every script, digits and _
    return text.replace(" ", "-")


def anchors(path, cache={}):
    """The anchors a Markdown file's headings make, duplicates numbered as GitHub does."""
    if path not in cache:
        seen, found = {}, set()
        fenced = False
        for line in path.read_text(encoding="utf-8").split("\n"):
            if FENCE.match(line):
                fenced = not fenced
                continue
            m = None if fenced else HEADING.match(line)
            if m:
                base = slug(m.group(2))
                n = seen.get(base, 0)
                seen[base] = n + 1
                found.add(base if n == 0 else f"{base}-{n}")
        cache[path] = found
    return cache[path]


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent)
    readme = root / "README.md"
    files = [readme] + sorted((root / "docs").glob("*.md"))
    problems = []

    lines = readme.read_text(encoding="utf-8").count("\n")
    if lines > MAX_README_LINES:
        problems.append(f"README.md: {lines} lines, more than {MAX_README_LINES}")

    for path in files:
        name = path.relative_to(root).as_posix()
        text = path.read_text(encoding="utf-8")
        for number, line in prose_lines(text):
            if name != "docs/history.md":
                for m in REFERENCE.finditer(line):
                    problems.append(f"{name}:{number}: names '{m.group(0)}': move it to docs/history.md")
            for m in LINK.finditer(line):
                target = m.group(1)
                if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
                    continue  # https:, mailto: …
                file_part, _, anchor = target.partition("#")
                linked = (path.parent / file_part).resolve() if file_part else path
                if not linked.exists():
                    problems.append(f"{name}:{number}: link to missing file {target}")
                elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
                    problems.append(f"{name}:{number}: no heading for #{anchor} in "
                                    f"{linked.relative_to(root).as_posix()}")

    for message in problems:
        print(message)
    if problems:
        print(f"check_docs: {len(problems)} problem(s)")
        return 1
    print(f"check_docs: ok (README.md {lines} lines, {len(files)} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
