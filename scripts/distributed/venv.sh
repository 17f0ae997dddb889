#!/usr/bin/env bash
# Makes (or refreshes) the driver's virtualenv, .venv-distributed/ at the top of the
# repository, from scripts/distributed/requirements.txt, and prints its python.
# Installs only when the requirements changed since the last install. Safe to re-run.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="$root/.venv-distributed"
req="$root/scripts/distributed/requirements.txt"
stamp="$venv/.requirements.sha256"
want="$(sha256sum "$req" | cut -d' ' -f1)"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv" >&2
fi
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "distributed: installing $req into $venv" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check -r "$req" >&2
  echo "$want" > "$stamp"
fi
echo "$venv/bin/python"
