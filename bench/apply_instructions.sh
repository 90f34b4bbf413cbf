#!/usr/bin/env bash
# Instructions per `apply` request under callgrind: the API half of issue 12, load-independent.
#
# `apply_load.sh` measures requests per second beside an echo, which moves by 20-30% from one
# window to the next on a shared machine; this counts the server's instructions per request
# instead (user space only: the kernel's loopback TCP, a quarter of the CPU under load, is not
# counted), split into the parts an apply goes through:
#   parse    the body read and its state loaded: deserialized into the game's typed state and
#            validated, a sealed one opened first (`load_json_field` and `decode_token` since the
#            one-pass apply; before it, the JSON extractor finding the state's extent as a
#            `RawValue`, then `decode_raw`)
#   response the step answered: the new state serialized, legal actions, events
#   routing  actix's router matching the path
# Requests are counted by the server itself (`cardroom_http_requests_total` of the apply route).
#
#   bench/apply_instructions.sh                                  # builds, then measures
#   CARDROOM_BIN=/tmp/new BASELINE=/tmp/old bench/apply_instructions.sh
#   SEALED=1 bench/apply_instructions.sh                         # with a seal key (sealed states)
# Needs valgrind, wrk, curl and jq. Bounded: two windows of $WINDOW seconds (default 10) per binary.
set -euo pipefail
cd "$(dirname "$0")/.."
WINDOW=${WINDOW:-10}
PORT=${PORT:-18380}
MOVES=${MOVES:-10}
. bench/callgrind_server.sh wrk curl jq

inclusive() { # dump, function name: its inclusive instruction count (0 if absent)
  local line
  line=$(grep -F -m1 "$2" "$1.annotated" || true)
  [ -z "$line" ] && { echo 0; return; }
  awk '{gsub(",", "", $1); printf "%.0f\n", $1}' <<<"$line"
}

applies() { # base: apply requests served so far
  curl -fsS "$1/metrics" | awk -F' ' '/^cardroom_http_requests_total\{route="\/v1\/games\/\{game\}\/apply"/ {n += $2} END {print n + 0}'
}

measure() { # binary
  local bin=$1 dir="$scratch/run" base="http://127.0.0.1:$PORT" seal=()
  rm -rf "$dir"; mkdir -p "$dir"
  if [ -n "${SEALED:-}" ]; then
    head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$dir/key"
    seal=(--seal-key-file "$dir/key")
  fi
  CARDROOM_LOG=warn valgrind --tool=callgrind --callgrind-out-file="$dir/cg.%p" \
    "$bin" serve --port "$PORT" --no-ladder --database "$dir/api.db" "${seal[@]}" 2>/dev/null &
  server=$!
  for _ in $(seq 600); do curl -fs "$base/healthz" >/dev/null 2>&1 && break; sleep 0.2; done
  # The body of apply_load.sh: a 4-player twenty_two state after $MOVES moves, its first action.
  local step
  step=$(curl -fsS -H 'content-type: application/json' -d '{"players":4,"seed":2026}' "$base/v1/games/twenty_two/new")
  for _ in $(seq "$MOVES"); do
    step=$(jq '{state, seat: .legal_actions[0].seat, action: .legal_actions[0].actions[-1]}' <<<"$step" \
      | curl -fsS -H 'content-type: application/json' -d @- "$base/v1/games/twenty_two/apply")
  done
  jq -c '{state, seat: .legal_actions[0].seat, action: .legal_actions[0].actions[0]}' <<<"$step" >"$dir/body.json"
  BODY_FILE="$dir/body.json" wrk -t1 -c8 -d3s -s bench/apply.lua "$base/v1/games/twenty_two/apply" >/dev/null
  callgrind_control -z "$server" >/dev/null 2>&1
  local a b
  a=$(applies "$base")
  BODY_FILE="$dir/body.json" wrk -t1 -c8 -d"${WINDOW}s" -s bench/apply.lua "$base/v1/games/twenty_two/apply" >/dev/null
  b=$(applies "$base")
  callgrind_control -d "$server" >/dev/null 2>&1
  sleep 1
  kill "$server"; wait "$server" 2>/dev/null || true; server=
  local n=$((b - a)) dump total request load response routing
  [ "$n" -gt 0 ] || { echo "$(basename "$bin"): no apply served in the window" >&2; return 1; }
  dump=$(ls "$dir"/cg.*.1)
  callgrind_annotate --inclusive=yes "$dump" >"$dump.annotated" 2>/dev/null
  total=$(grep -h '^summary:' "$dump" | awk '{print $2}')
  # Whichever of the two ways to read a request the binary has (the others count 0).
  parse=$(( $(inclusive "$dump" 'api/src/dto.rs:<actix_web::types::json::JsonExtractFut<T> as core::future::future::Future>::poll') \
    + $(inclusive "$dump" 'api::codec::StateCodec::decode_raw [') \
    + $(inclusive "$dump" 'as engine::erased::Game>::load_json_field [') \
    + $(inclusive "$dump" 'api::codec::StateCodec::decode_token [') ))
  response=$(inclusive "$dump" 'api::routes::games::step_response [')
  routing=$(inclusive "$dump" 'actix_router::router::Router<T,U>::recognize_fn [')
  [ "$parse" -gt 0 ] && [ "$response" -gt 0 ] || echo "warning: functions not found in the profile (renamed?)" >&2
  printf '%-24s %7d %9d %9d %9d %9d\n' "$(basename "$bin")" "$n" $((total / n)) $((parse / n)) \
    $((response / n)) $((routing / n))
}

echo "# $(date -u +%FT%TZ) instructions per apply request, ${WINDOW}s window under callgrind${SEALED:+, sealed states}"
printf '%-24s %7s %9s %9s %9s %9s\n' binary applies total parse response routing
measure "$CARDROOM_BIN"
if [ -n "${BASELINE:-}" ]; then
  measure "$BASELINE"
fi
