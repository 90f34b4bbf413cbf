#!/usr/bin/env bash
# Per request of `apply_load.sh`'s body: instructions, simulated cache misses and branch
# mispredictions of cardroom's `POST /v1/games/twenty_two/apply` beside the actix echo of the same
# body, under valgrind's callgrind (`--cache-sim=yes --branch-sim=yes`, user space, every thread).
#
# `apply_instructions.sh` counts instructions only; two servers can run the same instructions at
# very different speeds. This says why one needs more cycles per request than the other (the
# instruction cache, indirect branches) on a shared machine, where wall-clock rates move by a
# third from one window to the next and the hardware counters are not available.
#
#   CARDROOM_BIN=/tmp/new ECHO=/tmp/echo_server bench/apply_cachesim.sh
#   BASELINE=/tmp/old CARDROOM_BIN=... ECHO=... bench/apply_cachesim.sh   # a second build beside
# Requests are counted by wrk (the window is zeroed before and dumped after its run).
# Needs valgrind, wrk, curl and jq. Bounded: about a minute per server (WINDOW seconds, default 5).
set -euo pipefail
cd "$(dirname "$0")/.."
WINDOW=${WINDOW:-5}
PORT=${PORT:-18460}
MOVES=${MOVES:-10}
. bench/callgrind_server.sh wrk curl jq
if [ -z "${ECHO:-}" ]; then
  cargo build --release -q -p api --example echo_server
  ECHO=target/release/examples/echo_server
fi

# The body of apply_load.sh: a 4-player twenty_two state after $MOVES moves, its first action.
make_body() { # base file
  local step
  step=$(curl -fsS -H 'content-type: application/json' -d '{"players":4,"seed":2026}' "$1/v1/games/twenty_two/new")
  for _ in $(seq "$MOVES"); do
    step=$(jq '{state, seat: .legal_actions[0].seat, action: .legal_actions[0].actions[-1]}' <<<"$step" \
      | curl -fsS -H 'content-type: application/json' -d @- "$1/v1/games/twenty_two/apply")
  done
  jq -c '{state, seat: .legal_actions[0].seat, action: .legal_actions[0].actions[0]}' <<<"$step" >"$2"
}

measure() { # name url command...
  local name=$1 url=$2 dir="$scratch/$1" n dump
  shift 2
  mkdir -p "$dir"
  CARDROOM_LOG=warn valgrind --tool=callgrind --cache-sim=yes --branch-sim=yes \
    --callgrind-out-file="$dir/cg.%p" "$@" >/dev/null 2>&1 &
  server=$!
  for _ in $(seq 600); do
    curl -fs -o /dev/null -H 'content-type: application/json' -d @"$scratch/body.json" "$url" && break
    sleep 0.2
  done
  BODY_FILE="$scratch/body.json" wrk -t1 -c8 -d2s -s bench/apply.lua "$url" >/dev/null
  callgrind_control -z "$server" >/dev/null 2>&1
  n=$(BODY_FILE="$scratch/body.json" wrk -t1 -c8 -d"${WINDOW}s" -s bench/apply.lua "$url" \
    | sed -n 's/^RESULT requests=\([0-9]*\).*/\1/p')
  callgrind_control -d "$server" >/dev/null 2>&1
  sleep 1
  kill "$server"; wait "$server" 2>/dev/null || true; server=
  dump=$(ls "$dir"/cg.*.1)
  python3 - "$name" "$n" "$(grep '^events:' "$dump")" "$(grep '^summary:' "$dump")" <<'PY'
import sys
name, n = sys.argv[1], int(sys.argv[2])
events = sys.argv[3].split()[1:]
totals = dict(zip(events, map(int, sys.argv[4].split()[1:])))
per = {e: totals[e] / n for e in events}
print(f"{name:<22} {n:>6} {per['Ir']:>9.0f} {per['I1mr']:>6.0f} {per['D1mr'] + per['D1mw']:>6.0f} "
      f"{per['Bcm']:>6.0f} {per['Bim']:>6.0f}")
PY
}

# The body is made by the build measured first (the echo answers whatever it is sent).
CARDROOM_LOG=warn "$CARDROOM_BIN" serve --port "$PORT" --no-ladder --database "$scratch/body.db" >/dev/null 2>&1 &
server=$!
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
make_body "http://127.0.0.1:$PORT" "$scratch/body.json"
kill "$server"; wait "$server" 2>/dev/null || true; server=

echo "# $(date -u +%FT%TZ) per request, ${WINDOW}s window under callgrind (cache and branch simulation)"
printf '%-22s %6s %9s %6s %6s %6s %6s\n' server requests Ir I1miss D1miss Bc_miss Bi_miss
measure "$(basename "$CARDROOM_BIN")" "http://127.0.0.1:$((PORT + 1))/v1/games/twenty_two/apply" \
  "$CARDROOM_BIN" serve --port $((PORT + 1)) --no-ladder --database "$scratch/a.db"
if [ -n "${BASELINE:-}" ]; then
  measure "$(basename "$BASELINE")" "http://127.0.0.1:$((PORT + 2))/v1/games/twenty_two/apply" \
    "$BASELINE" serve --port $((PORT + 2)) --no-ladder --database "$scratch/b.db"
fi
measure echo "http://127.0.0.1:$((PORT + 3))/echo" "$ECHO" "127.0.0.1:$((PORT + 3))"
