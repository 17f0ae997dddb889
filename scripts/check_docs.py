#!/usr/bin/env python3
"""Checks the README, docs/ and source comments for a newcomer: size, no lab-notebook references, live links.

  scripts/check_docs.py            # from the repository root, or give it the root: check_docs.py ROOT

Fails (exit 1, one line per problem) when
  - README.md has more than 300 lines;
  - README.md or a docs/*.md other than docs/history.md names a numbered session, run or issue
    (`session 14`, `run 3`, `issue 16`, `#16`): those belong in docs/history.md, the one log;
  - a comment in Sources/**/*.swift names a numbered session, run or issue (the same patterns):
    a comment says what a thing is and why, the log of how it came about is docs/history.md;
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


def source_comments(text):
    """Yields (line number, comment) for each `//` comment of a Swift file, with code spans blanked.

    A `//` inside a string literal ("https://…") or a multi-line string is no comment."""
    in_multiline = False
    for number, line in enumerate(text.split("\n"), start=1):
        if line.count('"""') % 2 == 1:
            in_multiline = not in_multiline
            continue
        if in_multiline:
            continue
        quoted, i = False, 0
        while i < len(line) - 1:
            ch = line[i]
            if ch == "\\" and quoted:
                i += 2
                continue
            if ch == '"':
                quoted = not quoted
            elif not quoted and line.startswith("//", i):
                yield number, CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line[i:])
                break
            i += 1


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

    sources = sorted((root / "Sources").rglob("*.swift"))
    for path in sources:
        name = path.relative_to(root).as_posix()
        for number, comment in source_comments(path.read_text(encoding="utf-8")):
            for m in REFERENCE.finditer(comment):
                problems.append(f"{name}:{number}: comment names '{m.group(0)}': move it to docs/history.md")

    for message in problems:
        print(message)
    if problems:
        print(f"check_docs: {len(problems)} problem(s)")
        return 1
    print(f"check_docs: ok (README.md {lines} lines, {len(files)} files, {len(sources)} Swift sources)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
