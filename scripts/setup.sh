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
# `scan` on the PATH: a small launcher in ~/.local/bin (or $ECODEX_BIN_DIR) that runs this build,
# which keeps its data files beside it in .build/release.
bindir="${ECODEX_BIN_DIR:-$HOME/.local/bin}"
mkdir -p "$bindir"
printf '#!/bin/sh\nexec "%s" "$@"\n' "$PWD/.build/release/scan" > "$bindir/scan.tmp" && chmod 755 "$bindir/scan.tmp" && mv "$bindir/scan.tmp" "$bindir/scan"
echo
echo "setup: installed $bindir/scan (runs $PWD/.build/release/scan)"
case ":$PATH:" in *":$bindir:"*) ;; *) echo "setup: add $bindir to your PATH to run \`scan\` from anywhere" ;; esac
