#!/usr/bin/env bash
# `/apply` latency idle and under a flood of the largest `/rollouts` requests from one client,
# side by side in one run (issue 48's goal: under 16 concurrent max-size searches, `/apply` p99
# within 3x its idle p99 + 20 ms). One release server; rounds alternate idle and flooded.
#
# The flood: $FLOOD connections from one client (loopback, a second wrk), each sending the
# largest request (every action of a fresh 4-player game, 10000 heuristic playouts, `budget_ms`
# 2000) again as soon as it is answered: at most `--search-per-client` run at once, on the
# search pool; the rest are refused at once (429 `too_many_searches`) and sent again.
#
# Needs wrk, curl and jq (Debian: apt-get install -y wrk curl jq); installs nothing.
#   bench/search_flood.sh                      # 2 rounds of 10 s idle and 10 s flooded
#   DURATION=20s ROUNDS=3 FLOOD=16 bench/search_flood.sh
set -euo pipefail
cd "$(dirname "$0")/.."
CONNS=${CONNS:-16}
DURATION=${DURATION:-10s}
ROUNDS=${ROUNDS:-2}
FLOOD=${FLOOD:-16}
GAME=${GAME:-twenty_two}
PORT=${PORT:-18580}
for tool in wrk curl jq; do
  command -v "$tool" >/dev/null || { echo "missing $tool (apt-get install -y $tool)" >&2; exit 1; }
done
TARGET=${CARGO_TARGET_DIR:-target}
if [ -z "${BIN:-}" ]; then
  cargo build --release -q -p api --bin cardroom
fi
BIN=${BIN:-$TARGET/release/cardroom}
OUT=bench/results
mkdir -p "$OUT"
TMP=$(mktemp -d)
PIDS=()
FLOOD_PIDS=()
stop_flood() { for pid in "${FLOOD_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; FLOOD_PIDS=(); }
cleanup() { stop_flood; for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$TMP"; }
trap cleanup EXIT

CARDROOM_LOG=warn $BIN serve --port "$PORT" --no-ladder --database "$TMP/flood.db" & PIDS+=($!)
base="http://127.0.0.1:$PORT"
for _ in $(seq 100); do curl -fs "$base/healthz" >/dev/null 2>&1 && break; sleep 0.1; done

# The benchmarked apply: ten moves into a seeded deal.
step=$(curl -fsS -H 'content-type: application/json' -d '{"players":4,"seed":2026}' "$base/v1/games/$GAME/new")
jq -c '{state, seat: .legal_actions[0].seat, count: 10000, policy: "heuristic", budget_ms: 2000}' <<<"$step" >"$TMP/search.json"
for _ in $(seq 10); do
  step=$(jq '{state, seat: .legal_actions[0].seat, action: .legal_actions[0].actions[-1]}' <<<"$step" \
    | curl -fsS -H 'content-type: application/json' -d @- "$base/v1/games/$GAME/apply")
done
jq -c '{state, seat: .legal_actions[0].seat, action: .legal_actions[0].actions[0]}' <<<"$step" >"$TMP/apply.json"
curl -fsS -o /dev/null -H 'content-type: application/json' -d @"$TMP/apply.json" "$base/v1/games/$GAME/apply"

run_wrk() { # name
  BODY_FILE="$TMP/apply.json" wrk -t1 -c"$CONNS" -d"$DURATION" --latency -s bench/apply.lua \
    "$base/v1/games/$GAME/apply" | tee "$OUT/search-flood-$1.txt" | grep RESULT | sed "s/^RESULT/$1/"
}

# The flood: a second wrk, $FLOOD connections from one client, each sending the largest search
# again as soon as it is answered (a refusal comes back at once), for the flooded run and a
# second on each side. Its RESULT line counts every answer; `errors` are the non-2xx ones (429).
flood() { # round
  BODY_FILE="$TMP/search.json" wrk -t1 -c"$FLOOD" -d"$FLOOD_DURATION" --timeout 10s -s bench/apply.lua \
    "$base/v1/games/$GAME/rollouts" | grep RESULT | sed "s/^RESULT/flood-$1/" >"$TMP/flood-$1" &
  FLOOD_PIDS+=($!)
}

FLOOD_DURATION=$(( ${DURATION%s} + 2 ))s
echo "# $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg), commit $(git rev-parse --short HEAD), wrk -t1 -c$CONNS -d$DURATION on /apply, flood: wrk -c$FLOOD of the largest $GAME rollouts"
for round in $(seq "$ROUNDS"); do
  run_wrk "idle-$round"
  flood "$round"
  # The flood is under way (two searches admitted) before the measurement starts.
  sleep 1
  run_wrk "flooded-$round"
  wait "${FLOOD_PIDS[@]}" 2>/dev/null || true
  FLOOD_PIDS=()
  cat "$TMP/flood-$round"
done
