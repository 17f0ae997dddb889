#!/usr/bin/env bash
# Runs the whole test suite: unit tests of the core, the store, real
# Tesseract/Leptonica/ZBar, and end-to-end runs of the built `scan` binary.
# Safe to re-run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# Tesseract's OpenMP runtime is 3-8x slower on small machines without this;
# the scan binary sets it for itself, the test process must have it up front.
export OMP_THREAD_LIMIT=1
swift test "$@"
