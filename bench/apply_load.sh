#!/usr/bin/env bash
# Load benchmark of POST /v1/games/twenty_two/apply on loopback, beside a minimal actix JSON echo
# of the same payload (api/examples/echo_server.rs), in transparent and sealed mode.
#
# Needs wrk, curl and jq (Debian: apt-get install -y wrk curl jq); installs nothing itself.
# Bounded in time: 3 x $ROUNDS runs of $DURATION (defaults 3 and 10s) plus release builds.
#   bench/apply_load.sh                       # defaults: 64 connections, 1 wrk thread, 10 s
#   CONNS=64 DURATION=20s MOVES=12 bench/apply_load.sh
# Results (raw wrk output) go to bench/results/ (git-ignored); a summary is printed.
set -euo pipefail
cd "$(dirname "$0")/.."
CONNS=${CONNS:-64}
THREADS=${THREADS:-1}
DURATION=${DURATION:-10s}
ROUNDS=${ROUNDS:-3}
MOVES=${MOVES:-10}           # moves played before the benchmarked state (mid-game)
PLAYERS=${PLAYERS:-4}
GAME=${GAME:-twenty_two}
PORT=${PORT:-18080}
for tool in wrk curl jq; do
  command -v "$tool" >/dev/null || { echo "missing $tool (apt-get install -y $tool)" >&2; exit 1; }
done

# BIN / ECHO override the binaries (then nothing is built); BASELINE_BIN adds two servers, an older
# build of cardroom in transparent and in sealed mode, measured in the same rounds for a
# side-by-side comparison.
TARGET=${CARGO_TARGET_DIR:-target}
if [ -z "${BIN:-}" ] || [ -z "${ECHO:-}" ]; then
  cargo build --release -q -p api --bin cardroom --example echo_server
fi
BIN=${BIN:-$TARGET/release/cardroom}
ECHO=${ECHO:-$TARGET/release/examples/echo_server}
BASELINE_BIN=${BASELINE_BIN:-}
OUT=bench/results
mkdir -p "$OUT"
TMP=$(mktemp -d)
PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$TMP"; }
trap cleanup EXIT

wait_up() { for _ in $(seq 100); do curl -fs "$1" >/dev/null 2>&1 && return 0; sleep 0.1; done; echo "server at $1 did not start" >&2; exit 1; }

# Plays $MOVES moves from a seeded deal and writes the next apply request body to $2.
make_body() {
  local base=$1 file=$2 step
  step=$(curl -fsS -H 'content-type: application/json' -d "{\"players\":$PLAYERS,\"seed\":2026}" "$base/v1/games/$GAME/new")
  for _ in $(seq "$MOVES"); do
    [ "$(jq -r .over <<<"$step")" = false ] || break
    step=$(jq '{state, seat: .legal_actions[0].seat, action: .legal_actions[0].actions[-1]}' <<<"$step" \
      | curl -fsS -H 'content-type: application/json' -d @- "$base/v1/games/$GAME/apply")
  done
  jq -c '{state, seat: .legal_actions[0].seat, action: .legal_actions[0].actions[0]}' <<<"$step" >"$file"
  # The body must be accepted: the benchmark measures successful applies only.
  curl -fsS -o /dev/null -H 'content-type: application/json' -d @"$file" "$base/v1/games/$GAME/apply"
}

# CPU time (user + system, microseconds) process $1 has used so far.
cpu_us() { echo $(( $(awk '{print $14 + $15}' "/proc/$1/stat") * 1000000 / $(getconf CLK_TCK) )); }

# One wrk run against server process $4, with the server's CPU time per request: on a host where
# wrk's single thread saturates before the servers do, the rates meet while the CPU per request
# still tells the servers apart (the echo's CPU per request over this one's is the share of the
# echo's rate it would reach with the server as the bottleneck).
run_wrk() { # name url body_file pid
  local before after line requests
  before=$(cpu_us "$4")
  line=$(BODY_FILE=$3 wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency -s bench/apply.lua "$2" | tee "$OUT/$1.txt" | grep RESULT | sed "s/^RESULT/$1/")
  after=$(cpu_us "$4")
  requests=$(sed 's/.*requests=\([0-9]*\).*/\1/' <<<"$line")
  echo "$line cpu_us_per_req=$(awk -v c=$((after - before)) -v n="$requests" 'BEGIN {printf "%.1f", (n > 0 ? c / n : 0)}')"
}

echo "# $(date -u +%FT%TZ) $(nproc) cores, wrk -t$THREADS -c$CONNS -d$DURATION, $GAME $PLAYERS players after $MOVES moves"

# All three servers run side by side; the runs are interleaved for $ROUNDS rounds so a change of
# background load affects each about equally (compare medians).
CARDROOM_LOG=warn $BIN serve --port "$PORT" --no-ladder --database "$TMP/transparent.db" & PIDS+=($!)
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$TMP/key"
CARDROOM_LOG=warn $BIN serve --port $((PORT + 1)) --no-ladder --database "$TMP/sealed.db" --seal-key-file "$TMP/key" & PIDS+=($!)
$ECHO "127.0.0.1:$((PORT + 2))" & PIDS+=($!)
wait_up "http://127.0.0.1:$PORT/healthz"
wait_up "http://127.0.0.1:$((PORT + 1))/healthz"
for _ in $(seq 100); do curl -fs -o /dev/null -d '{}' -H 'content-type: application/json' "http://127.0.0.1:$((PORT + 2))/echo" && break; sleep 0.1; done
if [ -n "$BASELINE_BIN" ]; then
  CARDROOM_LOG=warn $BASELINE_BIN serve --port $((PORT + 3)) --no-ladder --database "$TMP/baseline.db" & PIDS+=($!)
  CARDROOM_LOG=warn $BASELINE_BIN serve --port $((PORT + 4)) --no-ladder --database "$TMP/baseline-sealed.db" --seal-key-file "$TMP/key" & PIDS+=($!)
  wait_up "http://127.0.0.1:$((PORT + 3))/healthz"
  wait_up "http://127.0.0.1:$((PORT + 4))/healthz"
fi
make_body "http://127.0.0.1:$PORT" "$TMP/transparent.json"
make_body "http://127.0.0.1:$((PORT + 1))" "$TMP/sealed.json"
# The baseline's own token (its format may differ).
[ -z "$BASELINE_BIN" ] || make_body "http://127.0.0.1:$((PORT + 4))" "$TMP/baseline-sealed.json"
for round in $(seq "$ROUNDS"); do
  run_wrk "transparent.$round" "http://127.0.0.1:$PORT/v1/games/$GAME/apply" "$TMP/transparent.json" "${PIDS[0]}"
  run_wrk "sealed.$round" "http://127.0.0.1:$((PORT + 1))/v1/games/$GAME/apply" "$TMP/sealed.json" "${PIDS[1]}"
  run_wrk "echo.$round" "http://127.0.0.1:$((PORT + 2))/echo" "$TMP/transparent.json" "${PIDS[2]}"
  if [ -n "$BASELINE_BIN" ]; then
    run_wrk "baseline.$round" "http://127.0.0.1:$((PORT + 3))/v1/games/$GAME/apply" "$TMP/transparent.json" "${PIDS[3]}"
    run_wrk "baseline-sealed.$round" "http://127.0.0.1:$((PORT + 4))/v1/games/$GAME/apply" "$TMP/baseline-sealed.json" "${PIDS[4]}"
  fi
done | tee "$TMP/summary"

# Median rps and CPU per request of each server over the rounds, and transparent/baseline as a
# share of the echo by both.
median() { grep "^$1\." "$TMP/summary" | sed "s/.* $2=\([0-9.]*\).*/\1/" | sort -g | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]}'; }
echo_rps=$(median echo rps)
echo_cpu=$(median echo cpu_us_per_req)
for name in transparent sealed baseline baseline-sealed; do
  rps=$(median "$name" rps)
  cpu=$(median "$name" cpu_us_per_req)
  if [ -n "$rps" ] && [ -n "$echo_rps" ]; then
    awk -v n="$name" -v r="$rps" -v e="$echo_rps" -v c="$cpu" -v ec="$echo_cpu" \
      'BEGIN {printf "%s median %d rps = %.0f%% of echo (%d rps); CPU per request %.1f us, echo %.1f us: %.0f%%\n", n, r, 100 * r / e, e, c, ec, 100 * ec / c}'
  fi
done
# Issue 43's goal: sealed within 10% of transparent, by rate and by CPU per request (each build's
# sealed server against its own transparent one).
for pair in "sealed transparent" "baseline-sealed baseline"; do
  set -- $pair
  if [ -n "$(median "$1" rps)" ]; then
    awk -v n="$1 / $2" -v r="$(median "$1" rps)" -v t="$(median "$2" rps)" -v c="$(median "$1" cpu_us_per_req)" -v tc="$(median "$2" cpu_us_per_req)" \
      'BEGIN {printf "%s: %.2f by rate, %.2f by CPU per request\n", n, r / t, tc / c}'
  fi
done
