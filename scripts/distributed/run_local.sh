#!/usr/bin/env bash
# Scans every photo listed in MANIFEST on a local Dask cluster (one single-threaded
# worker process per core, each with one long-lived `scan batch`), writes OUT
# (.jsonl or .parquet) and prints the summary.
#
#   scripts/distributed/run_local.sh MANIFEST OUT [driver options] [-- scan options]
#   e.g. ls goldset/synth/*.jpg > /tmp/m.txt
#        scripts/distributed/run_local.sh /tmp/m.txt /tmp/out.jsonl --local-workers 2 -- --region EU
#
# Installs the driver's Python packages from scripts/distributed/requirements.txt into
# .venv-distributed/ and uses the release `scan` (built here when missing), or $ECODEX_SCAN.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
[ $# -ge 2 ] || { sed -n '2,11p' "$0" >&2; exit 64; }
python="$("$root/scripts/distributed/venv.sh")"
if [ -z "${ECODEX_SCAN:-}" ]; then
  if [ ! -x "$root/.build/release/scan" ]; then
    (cd "$root" && swift build -c release --product scan >&2)
  fi
  export ECODEX_SCAN="$root/.build/release/scan"
fi
export OMP_THREAD_LIMIT=1
exec "$python" "$root/scripts/distributed/ecodex_dask.py" "$@"
