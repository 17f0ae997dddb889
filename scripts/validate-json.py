#!/usr/bin/env python3
"""Validates JSON output of `scan` against the committed schema (docs/schema/ecodex-output.schema.json).

usage: validate-json.py DEF [FILE|-]   DEF names one of the schema's $defs (scanResult, error, lookup,
historyList, historyEntry, storeStatus, prefs, version) or "any"; every non-empty line of FILE (or
standard input) is one JSON object. Exit 0 when all lines are valid, 1 with each error printed otherwise.
Needs python3-jsonschema (scripts/install-deps.sh installs it).
"""
import json
import os
import sys

from jsonschema import Draft202012Validator

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "schema", "ecodex-output.schema.json")


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(SCHEMA, encoding="utf-8") as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    name = sys.argv[1]
    if name != "any":
        if name not in schema["$defs"]:
            print(f"no definition {name!r} in the schema", file=sys.stderr)
            return 2
        schema = {**schema, "anyOf": None, "$ref": f"#/$defs/{name}"}
        del schema["anyOf"]
    validator = Draft202012Validator(schema)
    source = sys.stdin if len(sys.argv) < 3 or sys.argv[2] == "-" else open(sys.argv[2], encoding="utf-8")
    lines = [l for l in source.read().splitlines() if l.strip()]
    if not lines:
        print("no JSON lines to validate", file=sys.stderr)
        return 1
    bad = 0
    for n, line in enumerate(lines, 1):
        for error in validator.iter_errors(json.loads(line)):
            bad += 1
            path = "/".join(str(p) for p in error.absolute_path)
            print(f"line {n}: {path or '(root)'}: {error.message}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
