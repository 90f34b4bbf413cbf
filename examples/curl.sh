#!/usr/bin/env bash
# Plays a whole game of twenty-two against a running server with curl and jq, always choosing the
# first legal action of the first seat to act.
#   cargo run --release -- serve &        # http://127.0.0.1:8080
#   examples/curl.sh [BASE_URL] [GAME] [PLAYERS]
set -euo pipefail
BASE=${1:-http://127.0.0.1:8080}
GAME=${2:-twenty_two}
PLAYERS=${3:-2}
post() { curl -sS -H 'content-type: application/json' -d @- "$BASE/v1/games/$GAME/$1"; }

curl -sS "$BASE/v1/games/$GAME" | jq '{id, name, players, options: [.options[].id]}'
step=$(jq -n --argjson p "$PLAYERS" '{players: $p, seed: 42}' | post new)
moves=0
while [ "$(jq -r .over <<<"$step")" = false ]; do
  # One request per move: the step already lists the legal actions of every seat to act.
  body=$(jq '{state, seat: .legal_actions[0].seat, action: .legal_actions[0].actions[0]}' <<<"$step")
  step=$(post apply <<<"$body")
  if jq -e '.code? // empty' <<<"$step" >/dev/null; then echo "refused: $step" >&2; exit 1; fi
  moves=$((moves + 1))
done
echo "game over after $moves moves"
jq '.result' <<<"$step"
# The spectator view of the final state:
jq '{state}' <<<"$step" | post view | jq '.view' | head -c 600; echo
