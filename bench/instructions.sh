#!/usr/bin/env bash
# Instructions per action of `cardroom playouts` under valgrind's callgrind, for chosen ids, and
# optionally for a second (baseline) binary beside it. Unlike actions per second, the count does
# not move with the load of a shared machine, so a change to the engine can be judged on a busy one
# (it is a proxy: it ignores cache misses and branch mispredictions; confirm with
# openspiel_compare.sh on a quiet machine).
#
#   bench/instructions.sh basra:2 watten:4                     # ids as id:players
#   BASELINE=/tmp/cardroom-main bench/instructions.sh watten:4 # baseline vs this build
#   CARDROOM_BIN=path/to/cardroom bench/instructions.sh ...     # skip the release build
#
# Each figure is marginal: the instruction counts of a short and a longer run are subtracted, so
# start-up (the game registry, option parsing) cancels out. Needs valgrind (Debian `valgrind`).
# Bounded: about 50 s per (id, binary) (callgrind runs the binary about 50 times slower).
set -euo pipefail
cd "$(dirname "$0")/.."
SHORT=${SHORT:-1}
LONG=${LONG:-3}

if [ $# -eq 0 ]; then
  echo "usage: bench/instructions.sh ID:PLAYERS [ID:PLAYERS...]" >&2
  exit 2
fi
command -v valgrind >/dev/null || {
  echo "valgrind is not installed (apt-get install valgrind)" >&2
  exit 2
}
if [ -z "${CARDROOM_BIN:-}" ]; then
  cargo build --release -q -p api --bin cardroom
  CARDROOM_BIN=target/release/cardroom
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# One run: "<instructions> <actions>".
run() {
  local bin=$1 game=$2 players=$3 seconds=$4 out
  out=$(valgrind --tool=callgrind --callgrind-out-file="$scratch/cg.out" \
    "$bin" playouts --game "$game" --players "$players" --seconds "$seconds" 2>"$scratch/err")
  local ir
  ir=$(grep -o 'Collected : [0-9]*' "$scratch/err" | grep -o '[0-9]*$')
  echo "$ir $(python3 -c 'import json,sys; print(json.load(sys.stdin)["actions"])' <<<"$out")"
}

per_action() {
  local bin=$1 game=$2 players=$3 short long
  short=$(run "$bin" "$game" "$players" "$SHORT")
  long=$(run "$bin" "$game" "$players" "$LONG")
  python3 -c '
import sys
i1, a1, i2, a2 = map(int, sys.argv[1:5])
print(round((i2 - i1) / (a2 - a1)) if a2 > a1 else "n/a")' $short $long
}

printf '%-30s %8s %14s %10s\n' id players "instr/action" baseline
for spec in "$@"; do
  game=${spec%%:*}
  players=${spec##*:}
  this=$(per_action "$CARDROOM_BIN" "$game" "$players")
  base=
  if [ -n "${BASELINE:-}" ]; then
    base=$(per_action "$BASELINE" "$game" "$players")
  fi
  printf '%-30s %8s %14s %10s\n' "$game" "$players" "$this" "$base"
done
