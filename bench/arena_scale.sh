#!/usr/bin/env bash
# Arena reads at scale: every endpoint that reads the arena, against a database holding at least
# $MATCHES matches and $MOVES moves, on SQLite and on PostgreSQL.
#
# For each database: `cardroom db fill` stores synthetic history through the store (real random
# games replicated; see arena/src/synthetic.rs), then `cardroom serve --no-ladder` serves it and
# wrk reads each endpoint for $SECS seconds over $CONNS connections (--latency: p50 and p99).
# Prints one line per endpoint and the database's size. Goal (issue 38): p99 under 100 ms on both.
#
# Needs wrk, curl, jq and PostgreSQL 15 server binaries (apt-get install -y wrk curl jq postgresql);
# starts a throwaway cluster with .ci/postgres.sh unless DATABASE_URL is set. Bounded: two fills
# (a few minutes each) and 2 x 11 wrk runs of $SECS seconds, plus a release build.
#   bench/arena_scale.sh
#   ONLY=sqlite MATCHES=20000 MOVES=1000000 bench/arena_scale.sh   # a quick look
set -euo pipefail
cd "$(dirname "$0")/.."
MATCHES=${MATCHES:-200000}
MOVES=${MOVES:-10000000}
SECS=${SECS:-5}
CONNS=${CONNS:-4}
PORT=${PORT:-18190}
ONLY=${ONLY:-}                  # sqlite, pg, or both (empty)
wants() { [ -z "$ONLY" ] || [[ " $ONLY " == *" $1 "* ]]; }
for tool in wrk curl jq; do
  command -v "$tool" >/dev/null || { echo "missing $tool (apt-get install -y $tool)" >&2; exit 1; }
done
if [ -z "${BIN:-}" ]; then
  cargo build --release -q -p api --bin cardroom
  BIN=target/release/cardroom
fi
TMP=$(mktemp -d)
SERVER=
cleanup() {
  [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null && wait "$SERVER" 2>/dev/null
  rm -rf "$TMP"
  true
}
trap cleanup EXIT

# p50 and p99 in milliseconds from wrk --latency output.
percentiles() {
  awk '
    function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
    $1 == "50%" { p50 = ms($2) } $1 == "99%" { p99 = ms($2) }
    /Requests\/sec/ { rps = $2 }
    /Non-2xx/ { bad = $NF }
    END { printf "%8.1f %8.1f %8.0f %s", p50, p99, rps, (bad ? "NON-2XX=" bad : "") }'
}

run() {
  local name=$1 database=$2
  echo "== $name: filling $MATCHES matches / $MOVES moves"
  local filled
  filled=$("$BIN" db fill --database "$database" --matches "$MATCHES" --moves "$MOVES")
  echo "$filled"
  # A settled database, as in steady state: PostgreSQL's autovacuum would otherwise analyze the
  # freshly loaded tables in the middle of the measurement.
  [ "$name" = pg ] && "$BIN" db vacuum --database "$database" >/dev/null
  CARDROOM_LOG=warn "$BIN" serve --no-ladder --database "$database" --port "$PORT" \
    >"$TMP/$name.log" 2>&1 &
  SERVER=$!
  local base="http://127.0.0.1:$PORT"
  for _ in $(seq 100); do curl -fs "$base/healthz" >/dev/null 2>&1 && break; sleep 0.2; done
  local bot builtin match game
  bot=$(curl -fs "$base/v1/bots" | jq -r '[.bots[] | select(.builtin | not)][0].id')
  builtin=$(curl -fs "$base/v1/bots" | jq -r '[.bots[] | select(.name == "random")][0].id')
  match=$(curl -fs "$base/v1/matches?limit=1" | jq -r '.matches[0].id')
  game=$(curl -fs "$base/v1/matches?limit=1" | jq -r '.matches[0].game')
  printf "%-44s %8s %8s %8s\n" "endpoint ($name)" "p50 ms" "p99 ms" "req/s"
  for path in \
    "/v1/bots" \
    "/v1/bots/$bot" \
    "/v1/bots/$builtin" \
    "/v1/matches" \
    "/v1/matches?game=$game" \
    "/v1/matches?bot=$bot" \
    "/v1/matches?bot=$builtin&game=$game" \
    "/v1/matches/$match" \
    "/v1/matches/$match/frames" \
    "/v1/leaderboards/$game" \
    "/v1/tournaments"; do
    local shown=${path//$bot/{bot\}}
    shown=${shown//$builtin/{builtin\}}
    shown=${shown//$match/{match\}}
    printf "%-44s %s\n" "$shown" "$(wrk -t1 -c"$CONNS" -d"${SECS}s" --latency "$base$path" | percentiles)"
  done
  kill "$SERVER"; wait "$SERVER" 2>/dev/null || true; SERVER=
  echo "size: $("$BIN" db size --database "$database")"
  grep -i "slow statement" "$TMP/$name.log" | head -5 || true
}

wants sqlite && run sqlite "$TMP/scale.db"
if wants pg; then
  . .ci/postgres.sh
  trap 'cleanup; [ -n "${PG_DIR:-}" ] && as_pg "$PG_BIN/pg_ctl -D $PG_DIR/data -m immediate stop >/dev/null 2>&1" && rm -rf "$PG_DIR"; true' EXIT
  # A database of its own, so an existing DATABASE_URL's data is not touched.
  psql "$DATABASE_URL" -qc "DROP DATABASE IF EXISTS cardroom_scale" -c "CREATE DATABASE cardroom_scale" >/dev/null
  run pg "${DATABASE_URL%/*}/cardroom_scale"
fi
