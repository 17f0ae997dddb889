#!/usr/bin/env bash
# Runs the whole test suite: unit tests of the core, the store, real
# Tesseract/Leptonica/ZBar, and end-to-end runs of the built `scan` binary.
# `--fast`: only the unit tests of the core, the store and the bench (no OCR, no binary runs),
# for running often while changing code. Safe to re-run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
if [ "${1:-}" = "--fast" ]; then
  shift
  exec swift test --filter 'EcodexCoreTests|EcodexStoreTests|EcodexBenchTests' "$@"
fi
# OMP_THREAD_LIMIT is not set here: the code that loads Tesseract sets it (to 1) in the
# test process and in `scan` alike, and VisionLibrariesTests checks that it did.
swift test "$@"
# The Dask driver end to end (scripts/distributed/test_driver.py): two local workers, one
# killed part-way, over 200 gold-set photos; about 3 minutes on 2 cores. Only for the whole
# suite, not when arguments pick tests. Installs scripts/distributed/requirements.txt into
# .venv-distributed/ the first time.
if [ $# -eq 0 ]; then
  # The pack generator's name rules (packs/tools/import_off.py), checked on the committed records.
  python3 packs/tools/test_import_off.py
  # The README stays a page for newcomers, every link in it and in docs/ resolves, and no
  # source comment names a numbered session, run or issue (the check has its own tests).
  python3 scripts/test_check_docs.py
  python3 scripts/check_docs.py
  python="$(scripts/distributed/venv.sh)"
  timeout 1200 "$python" scripts/distributed/test_driver.py "$(swift build --show-bin-path)/scan"
fi
