#!/usr/bin/env bash
# `POST /v1/games/{game}/rollouts` against the engine's in-process rollouts on the same state
# (issue 41's goal: the endpoint at 50% or more of the in-process playout rate). One release
# server; the state is a mid-game position reached by first-legal moves; each round times one
# request (curl's total, the HTTP round trip included) and one in-process run, interleaved.
# Needs curl and jq; installs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
GAME=${GAME:-twenty_two}
PLAYERS=${PLAYERS:-4}
MOVES=${MOVES:-9}
COUNT=${COUNT:-500}
POLICY=${POLICY:-random}
ROUNDS=${ROUNDS:-5}
PORT=${PORT:-18480}
TARGET=${CARGO_TARGET_DIR:-target}
if [ -z "${BIN:-}" ]; then
  cargo build --release -q -p api --bin cardroom --example rollouts_rate
fi
BIN=${BIN:-$TARGET/release/cardroom}
RATE=${RATE:-$TARGET/release/examples/rollouts_rate}
TMP=$(mktemp -d)
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$TMP"' EXIT
CARDROOM_LOG=warn $BIN serve --port "$PORT" --no-ladder --database "$TMP/rollouts.db" & SERVER=$!
base="http://127.0.0.1:$PORT"
for _ in $(seq 100); do curl -fs "$base/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
step=$(curl -fsS -H 'content-type: application/json' -d "{\"players\":$PLAYERS,\"seed\":2026}" "$base/v1/games/$GAME/new")
for _ in $(seq "$MOVES"); do
  step=$(jq -c '{state: .state, seat: .legal_actions[0].seat, action: .legal_actions[0].actions[0]}' <<<"$step" \
    | curl -fsS -H 'content-type: application/json' -d @- "$base/v1/games/$GAME/apply")
done
jq -c .state <<<"$step" > "$TMP/state.json"
seat=$(jq '.legal_actions[0].seat' <<<"$step")
actions=$(jq '.legal_actions[0].actions | length' <<<"$step")
jq -c --argjson seat "$seat" --argjson count "$COUNT" --arg policy "$POLICY" \
  '{state: .state, seat: $seat, count: $count, policy: $policy, seed: 1}' <<<"$step" > "$TMP/body.json"
echo "$GAME ${PLAYERS}p, $MOVES moves in, seat $seat, $actions actions x $COUNT playouts, policy $POLICY"
http_rates=(); engine_rates=()
for round in $(seq "$ROUNDS"); do
  seconds=$(curl -fsS -o "$TMP/reply.json" -w '%{time_total}' -H 'content-type: application/json' \
    -d @"$TMP/body.json" "$base/v1/games/$GAME/rollouts")
  playouts=$(jq '[.results[].playouts] | add' "$TMP/reply.json")
  http=$(awk -v p="$playouts" -v s="$seconds" 'BEGIN { printf "%.0f", p / s }')
  engine=$("$RATE" "$GAME" "$TMP/state.json" "$seat" "$COUNT" "$POLICY" | awk '{print $6}')
  echo "round $round: http $http playouts/s ($playouts in ${seconds}s), in-process $engine playouts/s"
  http_rates+=("$http"); engine_rates+=("$engine")
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
h=$(median "${http_rates[@]}"); e=$(median "${engine_rates[@]}")
awk -v h="$h" -v e="$e" 'BEGIN { printf "median: http %d, in-process %d playouts/s: %.2f of in-process (goal >= 0.50)\n", h, e, h / e }'
