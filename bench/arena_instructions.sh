#!/usr/bin/env bash
# Instructions per move of the arena (issue 14), counted by valgrind's callgrind over every thread
# of one `cardroom serve` process: the same set-up as the `sqlite` scenario of arena_load.sh (four
# URL bots at the server's own /bots/random, unranked 4-player twenty_two matches on SQLite), with
# the count split into
#   bot      the HTTP server's side of every bot call (actix's connection dispatcher: parsing the
#            request, the built-in bot, the answer): what wrk's ceiling measures;
#   hmac     the arena signing each request (under valgrind SHA-256 runs its portable code, about
#            four times the instructions of the SHA extensions used natively: shown apart; and a
#            seat's signer reuses its hash of the history only within one second, which at
#            valgrind's pace is about one move per seat: natively most of the history is not
#            hashed again, under valgrind nearly all of it is);
#   arena    everything else: the match loop, the engine, the HTTP client, the move log (SQLite).
# Unlike moves per second or CPU time, these counts barely move with the load of a shared machine,
# so a change to the arena's side of a move can be judged on a busy one. They leave out the kernel
# (loopback TCP, wake-ups, file writes): confirm with arena_load.sh on a quiet machine.
#
#   bench/arena_instructions.sh                          # this build
#   BASELINE=/tmp/cardroom-before bench/arena_instructions.sh   # and a baseline binary
#
# Needs valgrind, curl, jq and python3. Bounded: about 60 s per binary (WINDOW seconds counted
# after WARMUP seconds, under valgrind's ~50x slowdown).
set -euo pipefail
export CARDROOM_MATCHES_PER_MINUTE=0 CARDROOM_REGISTRATIONS_PER_MINUTE=0
# One client (this script) queues every match: without these, 8 of them would run at once
# (the fair queue's per-client cap, issue 48q) whatever --match-concurrency says.
export CARDROOM_MAX_QUEUED_PER_CLIENT=0 CARDROOM_MAX_RUNNING_PER_CLIENT=0
cd "$(dirname "$0")/.."
WINDOW=${WINDOW:-30}
WARMUP=${WARMUP:-10}
PORT=${PORT:-18280}
. bench/callgrind_server.sh curl jq python3

moves() { python3 -c 'import sqlite3,sys; print(sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True).execute("SELECT count(*) FROM match_moves").fetchone()[0])' "$1"; }

# Inclusive instructions of the first function whose name contains $2 in callgrind output $1
# (0, with a warning, when no function matches: a renamed symbol must not pass unnoticed).
inclusive() {
  local line
  line=$(callgrind_annotate --inclusive=yes "$1" 2>/dev/null | grep -F -m1 "$2" || true)
  if [ -z "$line" ]; then
    echo "warning: no function matching \`$2\` in the profile; counted as 0" >&2
    echo 0
    return
  fi
  awk '{gsub(",", "", $1); printf "%.0f\n", $1}' <<<"$line"
}

measure() { # binary
  local bin=$1 dir="$scratch/run" base="http://127.0.0.1:$PORT"
  rm -rf "$dir"; mkdir -p "$dir"
  CARDROOM_LOG=warn valgrind --tool=callgrind --callgrind-out-file="$dir/cg.%p" \
    "$bin" serve --port "$PORT" --no-ladder --match-concurrency 64 --database "$dir/arena.db" 2>/dev/null &
  server=$!
  for _ in $(seq 600); do curl -fs "$base/healthz" >/dev/null 2>&1 && break; sleep 0.2; done
  local ids=() i
  for i in 1 2 3 4; do
    ids+=("$(curl -fsS -H 'content-type: application/json' \
      -d "{\"name\":\"random-$i\",\"url\":\"$base/bots/random\",\"games\":[\"twenty_two\"],\"open_to_challenges\":true}" "$base/v1/bots" | jq -r .id)")
  done
  local bots
  bots=$(printf '%s\n' "${ids[@]}" | jq -R . | jq -sc .)
  seq 128 | xargs -P4 -I{} curl -fsS -o /dev/null -H 'content-type: application/json' \
    -d "{\"game\":\"twenty_two\",\"bots\":$bots}" "$base/v1/matches"
  sleep "$WARMUP"
  callgrind_control -z "$server" >/dev/null 2>&1
  local a b
  a=$(moves "$dir/arena.db")
  sleep "$WINDOW"
  b=$(moves "$dir/arena.db")
  callgrind_control -d "$server" >/dev/null 2>&1
  sleep 1
  kill "$server"; wait "$server" 2>/dev/null || true; server=
  local dump total bot hmac n=$((b - a))
  if [ "$n" -le 0 ]; then
    echo "$(basename "$bin"): no move logged in the ${WINDOW}s window" >&2
    return 1
  fi
  dump=$(ls "$dir"/cg.*.1)
  total=$(grep -h '^summary:' "$dump" | awk '{print $2}')
  bot=$(inclusive "$dump" '<actix_http::h1::dispatcher::Dispatcher<T,S,B,X,U> as core::future::future::Future>::poll [')
  # Whole-body signatures (`sign`) and a seat's incremental ones (`MoveSigner::sign`).
  hmac=$(( $(inclusive "$dump" 'arena::client::sign [' 2>/dev/null) + $(inclusive "$dump" 'arena::client::MoveSigner::sign [' 2>/dev/null) ))
  [ "$hmac" -gt 0 ] || echo "warning: no signing function in the profile; hmac counted as 0" >&2
  printf '%-28s %6d %10d %10d %10d %10d\n' "$(basename "$bin")" "$n" $((total / n)) $((bot / n)) $((hmac / n)) \
    $(((total - bot - hmac) / n))
}

echo "# $(date -u +%FT%TZ) instructions per move, ${WINDOW}s window under callgrind"
printf '%-28s %6s %10s %10s %10s %10s\n' binary moves total bot hmac arena
measure "$CARDROOM_BIN"
if [ -n "${BASELINE:-}" ]; then
  measure "$BASELINE"
fi
