#!/usr/bin/env python3
"""Tests of scripts/check_docs.py on small fixture trees: source comments that name a numbered
session, run or issue fail the check; the same words in code, strings and code spans do not.

  python3 scripts/test_check_docs.py
"""
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent / "check_docs.py"


def check(swift):
    """Runs check_docs.py on a tree whose one Swift source is `swift`: (exit code, output)."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "README.md").write_text("# Fixture\n", encoding="utf-8")
        (root / "docs").mkdir()
        (root / "docs" / "history.md").write_text("# History\n\nSession 14 measured it.\n", encoding="utf-8")
        (root / "Sources" / "Kit").mkdir(parents=True)
        (root / "Sources" / "Kit" / "Thing.swift").write_text(swift, encoding="utf-8")
        done = subprocess.run([sys.executable, str(SCRIPT), str(root)], capture_output=True, text=True)
        return done.returncode, done.stdout


class SourceCommentTests(unittest.TestCase):
    def test_numbered_references_in_comments_fail(self):
        rows = [
            "/// Added in session 14 after the bench.\nlet a = 1\n",
            "let a = 1 // see issue 49\n",
            "// Fixes #49.\nlet a = 1\n",
            "/// Measured in run 3.\nlet a = 1\n",
            "/// Tracked as issue #7.\nlet a = 1\n",
        ]
        for swift in rows:
            with self.subTest(swift=swift):
                code, out = check(swift)
                self.assertEqual(code, 1, out)
                self.assertIn("Sources/Kit/Thing.swift:", out)
                self.assertIn("move it to docs/history.md", out)

    def test_label_text_code_and_strings_pass(self):
        rows = [
            "/// What the reader keeps and why.\nlet a = 1\n",
            "/// A colour's number on US labels (`FD&C Yellow #5`, `INS #202`).\nlet a = 1\n",
            'let url = "https://example.org/issues/12#49" // the tracker\n',
            'let text = """\n// session 14 is label text here\n"""\n',
            'let s = "a \\" // session 3"\n',
            "let session = 14 // the count kept per run\n",
        ]
        for swift in rows:
            with self.subTest(swift=swift):
                code, out = check(swift)
                self.assertEqual(code, 0, out)

    def test_the_repository_passes(self):
        done = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stdout)


if __name__ == "__main__":
    unittest.main()
