#!/usr/bin/env bash
# Bounded load test of ecodex-server on loopback only: starts a release server
# with a fresh database (SQLite, or with BACKEND=postgres a PostgreSQL cluster of its own
# made with Debian's initdb, on loopback) on 127.0.0.1 and a free port, runs wrk against
# GET /v1/additives/{code} and POST /v1/telemetry for DURATION seconds each,
# prints requests/s and latency percentiles, checks that every telemetry event
# was stored, and stops the server. Not part of `swift test` (numbers, not a pass/fail).
#
#   scripts/server-load-test.sh            # 10 s per endpoint, 2 threads, 32 connections
#   DURATION=5 CONNECTIONS=16 scripts/server-load-test.sh
#   BACKEND=postgres scripts/server-load-test.sh   # the same against PostgreSQL
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-10}
CONNECTIONS=${CONNECTIONS:-32}
BACKEND=${BACKEND:-sqlite}
CONFIG=${CONFIG:-release}   # CONFIG=debug measures the debug build (much slower; for a quick look only)
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install -y wrk" >&2; exit 2; }
swift build -c "$CONFIG" --product ecodex-server >/dev/null
work=$(mktemp -d)
pg=""
as_postgres() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
cleanup() {
  kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true
  [ -z "$pg" ] || as_postgres "$pg/pg_ctl" -D "$work/pgdata" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
database="$work/db.sqlite"
if [ "$BACKEND" = postgres ]; then
  pg=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
  [ "$(id -u)" -ne 0 ] || chown postgres "$work"
  pgport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  as_postgres "$pg/initdb" -D "$work/pgdata" -U ecodex --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
  as_postgres "$pg/pg_ctl" -D "$work/pgdata" -w -l "$work/pg.log" \
    -o "-p $pgport -k $work -c listen_addresses=127.0.0.1 -c max_connections=100" start >/dev/null </dev/null
  "$pg/psql" -h 127.0.0.1 -p "$pgport" -U ecodex -d postgres -q -c "CREATE DATABASE ecodex"
  database="postgres://ecodex@127.0.0.1:$pgport/ecodex"
fi
.build/"$CONFIG"/ecodex-server serve --host 127.0.0.1 --port 0 --database "$database" --log-level warning >"$work/log" 2>&1 &
server=$!
for _ in $(seq 1 100); do grep -q 'listening on' "$work/log" && break; sleep 0.1; done
port=$(sed -n 's/.*ecodex-server listening on 127.0.0.1:\([0-9]*\).*/\1/p' "$work/log")
[ -n "$port" ] || { cat "$work/log" >&2; exit 1; }
base="http://127.0.0.1:$port"

cat >"$work/post.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"events":[{"app_version":"0.9.0","data_version":"2026.11.22","day":"2026-11-23","install_id":"0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f","name":"flags_count","value":2}]}'
done = function(summary, latency, requests)
  io.write(string.format("non-2xx/3xx: %d, socket errors: %d\n", summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
LUA
cat >"$work/get.lua" <<'LUA'
done = function(summary, latency, requests)
  io.write(string.format("non-2xx/3xx: %d, socket errors: %d\n", summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
LUA

echo "== GET /v1/additives/E330 ($BACKEND, ${DURATION}s, $CONNECTIONS connections)"
wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$work/get.lua" "$base/v1/additives/E330" | grep -E 'Requests/sec|50%|99%|non-2xx|requests in'
echo "== POST /v1/telemetry, one event per request ($BACKEND, ${DURATION}s, $CONNECTIONS connections)"
wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$work/post.lua" "$base/v1/telemetry" | tee "$work/post.txt" | grep -E 'Requests/sec|50%|99%|non-2xx|requests in'
sent=$(sed -n 's/^ *\([0-9]*\) requests in.*/\1/p' "$work/post.txt")
if [ "$BACKEND" = postgres ]; then
  stored=$("$pg/psql" "$database" -At -c "select count(*) from telemetry")
else
  stored=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from telemetry').fetchone()[0])" "$database")
fi
echo "telemetry: $sent requests answered, $stored events stored"
