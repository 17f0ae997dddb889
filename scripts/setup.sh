#!/usr/bin/env bash
# One command for a newcomer: install what is missing, build, scan the sample label.
# Safe to re-run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
echo "setup: building (release)…"
swift build -c release --product scan
echo "setup: scanning samples/candy-label.jpg with --region EU"
echo
.build/release/scan samples/candy-label.jpg --region EU
