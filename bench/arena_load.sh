#!/usr/bin/env bash
# Arena throughput: moves per second the arena plays, beside the raw ceiling of the HTTP call it
# makes for every move.
#
#   ceiling   wrk against a built-in bot's move endpoint (POST /bots/random/move) with the body
#             the arena sends (a 4-player twenty_two view, legal actions and the seat's history):
#             `ceiling-early` after $EARLY_MOVES moves (~2 KB), `ceiling-typical` after $MOVES
#             moves, about the middle of a match (~18 KB); $WRK_CONNS connections.
#   sqlite    one `cardroom serve` process on SQLite (--role all), four URL bots registered at
#             its own /bots/random/, unranked 4-player twenty_two matches, $MATCHES at once.
#   sqlite-inprocess  the same with the built-in `random` bot called in process (no HTTP): what is
#             left per move is the engine and the database, so this isolates the cost of logging
#             moves durably.
#   url-starter / stream-starter  the same client on both sides of issue 41's comparison: four
#             Rust starters (examples/bots/rust) as URL bots (each serving POST /move, requests
#             signed and checked), then four as stream bots (`--connect`: GET /v1/bot/stream,
#             answers POSTed back); unranked 4-player twenty_two matches, $MATCHES at once.
#   pg-N      N = 1, 2, 3 `cardroom serve --role worker` processes on one PostgreSQL database,
#             $CONCURRENCY matches each, against one `--role api` process that serves the bots
#             and the API.
# Moves/s = moves logged in the database during $DURATION seconds, after $WARMUP seconds.
# cpu_us_per_move / cpu_us_per_call: CPU time (user + system) the server process(es) spent in the
# window, per move logged or per call served. It moves less with the load of a shared machine than
# the rates do (still about 20% from one window to the next on a busy one: judge small changes with
# arena_instructions.sh), and it compares the arena's cost per move with the bot call's cost: the
# arena can reach 50% of the ceiling only if its CPU per move is at most twice the CPU per call of
# the ceiling (wrk's own CPU is not counted).
#
# Needs wrk, curl, jq, python3 and PostgreSQL 15 server binaries (apt-get install -y wrk curl jq
# postgresql); starts a throwaway cluster with .ci/postgres.sh unless DATABASE_URL is set.
# Bounded: about 5 runs of WARMUP + DURATION seconds plus a release build.
#   bench/arena_load.sh
#   BIN=/tmp/cardroom-before ONLY=sqlite bench/arena_load.sh   # another binary, one scenario
#   ONLY="ceiling sqlite" bench/arena_load.sh                  # the ratio of issue 14, one run
set -euo pipefail
# The load queues matches and registers bots far faster than the default rate limits allow.
export CARDROOM_MATCHES_PER_MINUTE=0 CARDROOM_REGISTRATIONS_PER_MINUTE=0
# One client (this script) queues every match: without these, 8 of them would run at once
# (the fair queue's per-client cap, issue 48q) whatever --match-concurrency says.
export CARDROOM_MAX_QUEUED_PER_CLIENT=0 CARDROOM_MAX_RUNNING_PER_CLIENT=0
cd "$(dirname "$0")/.."
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-3}
MATCHES=${MATCHES:-64}          # --match-concurrency of the SQLite runs
CONCURRENCY=${CONCURRENCY:-32}  # --match-concurrency of each PostgreSQL worker
EARLY_MOVES=${EARLY_MOVES:-10}
MOVES=${MOVES:-175}
WRK_CONNS=${WRK_CONNS:-16}
PORT=${PORT:-18180}
ONLY=${ONLY:-}                  # run only these scenarios: ceiling sqlite inprocess stream pg
wants() { [ -z "$ONLY" ] || [[ " $ONLY " == *" $1 "* ]]; }
for tool in wrk curl jq python3; do
  command -v "$tool" >/dev/null || { echo "missing $tool (apt-get install -y $tool)" >&2; exit 1; }
done
if [ -z "${BIN:-}" ]; then
  cargo build --release -q -p api --bin cardroom
  BIN=target/release/cardroom
fi
OUT=bench/results
mkdir -p "$OUT"
TMP=$(mktemp -d)
PIDS=()      # the server processes (their CPU is measured)
BOT_PIDS=()  # bot processes (not measured)
stop_all() {
  for pid in "${PIDS[@]}" "${BOT_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}" "${BOT_PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  PIDS=(); BOT_PIDS=()
}
cleanup() { stop_all; rm -rf "$TMP"; [ -n "${PG_DIR:-}" ] && as_pg "$PG_BIN/pg_ctl -D $PG_DIR/data -m immediate stop >/dev/null 2>&1" && rm -rf "$PG_DIR"; true; }
if wants pg; then
  # Starts a cluster and exports DATABASE_URL unless it is set; our trap below replaces its own.
  . .ci/postgres.sh
fi
trap cleanup EXIT

wait_up() { for _ in $(seq 200); do curl -fs "$1" >/dev/null 2>&1 && return 0; sleep 0.1; done; echo "server at $1 did not start" >&2; exit 1; }
json() { curl -fsS -H 'content-type: application/json' -d "$2" "$1"; }

# Registers four URL bots at $1/bots/random and prints their ids as a JSON array.
register_bots() {
  local ids=()
  for i in 1 2 3 4; do
    ids+=("$(json "$1/v1/bots" "{\"name\":\"random-$i\",\"url\":\"$1/bots/random\",\"games\":[\"twenty_two\"],\"open_to_challenges\":true}" | jq -r .id)")
  done
  printf '%s\n' "${ids[@]}" | jq -R . | jq -sc .
}

queue_matches() { # base bots_json count (four requests at a time, so queueing keeps ahead of play)
  seq "$3" | xargs -P4 -I{} curl -fsS -o /dev/null -H 'content-type: application/json' \
    -d "{\"game\":\"twenty_two\",\"bots\":$2}" "$1/v1/matches"
}

pg_moves() { psql -qtA "$1" -c 'SELECT count(*) FROM match_moves'; }
pg_queued() { psql -qtA "$1" -c "SELECT count(*) FROM matches WHERE status = 'queued'"; }
# The first column of the first row of query $2 on SQLite file $1, opened read-only.
sqlite_count() { python3 -c 'import sqlite3,sys; print(sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True).execute(sys.argv[2]).fetchone()[0])' "$1" "$2"; }
sqlite_moves() { sqlite_count "$1" 'SELECT count(*) FROM match_moves'; }
sqlite_queued() { sqlite_count "$1" "SELECT count(*) FROM matches WHERE status = 'queued'"; }

# CPU time in microseconds (user + system, all threads) of the server processes started so far.
cpu_us() {
  local total=0 pid ticks
  for pid in "${PIDS[@]}"; do
    ticks=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)
    total=$((total + ticks))
  done
  echo $((total * 1000000 / $(getconf CLK_TCK)))
}

# A window counts only while every match slot is busy: with the queue empty before its end, fewer
# matches play at once and the rate undercounts. `queued_left` says how many were still waiting.
measure() { # name kind(sqlite|pg) database
  local name=$1 kind=$2 database=$3
  sleep "$WARMUP"
  local a b cpu_a cpu_b left
  a=$("${kind}_moves" "$database"); cpu_a=$(cpu_us); sleep "$DURATION"; b=$("${kind}_moves" "$database"); cpu_b=$(cpu_us)
  left=$("${kind}_queued" "$database")
  echo "$name moves_per_s=$(( (b - a) / DURATION )) cpu_us_per_move=$(( (cpu_b - cpu_a) / (b - a > 0 ? b - a : 1) )) queued_left=$left" \
    | tee -a "$OUT/arena_load.txt"
  if [ "$left" -eq 0 ]; then
    echo "warning: $name ran out of queued matches within the window; its rate undercounts (queue more)" >&2
  fi
}

echo "# $(date -u +%FT%TZ) $(nproc) cores, $BIN, ${DURATION}s windows" | tee -a "$OUT/arena_load.txt"

if wants ceiling || wants sqlite; then
  base="http://127.0.0.1:$PORT"
  CARDROOM_LOG=warn $BIN serve --port "$PORT" --no-ladder --match-concurrency "$MATCHES" --database "$TMP/arena.db" & PIDS+=($!)
  wait_up "$base/healthz"
  if wants ceiling; then
    # Move requests as the arena sends them: the view, the legal actions and the history of the
    # seat to act, after $EARLY_MOVES moves and after $MOVES moves (a 4-player match of
    # twenty_two lasts about 350 moves, so the second is a typical body, history included).
    step=$(json "$base/v1/games/twenty_two/new" '{"players":4,"seed":2026}')
    : >"$TMP/moves.jsonl"
    body_at() { # file: the move request of the seat to act in $step
      local seat view
      seat=$(jq .legal_actions[0].seat <<<"$step")
      view=$(jq "{state, seat: $seat}" <<<"$step" | curl -fsS -H 'content-type: application/json' -d @- "$base/v1/games/twenty_two/view" | jq -c .view)
      jq -c -s --argjson view "$view" --argjson step "$step" --argjson seat "$seat" \
        '{match: "m_0123456789abcdef", game: "twenty_two", seat: $seat, view: $view,
          legal_actions: $step.legal_actions[0].actions, deadline_ms: 1000,
          history: map(if .seat == $seat then . else del(.action) end)}' "$TMP/moves.jsonl" >"$1"
    }
    for move in $(seq "$MOVES"); do
      [ "$(jq .over <<<"$step")" = true ] && { echo "the game ended after $((move - 1)) moves" >&2; break; }
      [ "$move" -eq $((EARLY_MOVES + 1)) ] && body_at "$TMP/early.json"
      request=$(jq -c '{state, seat: .legal_actions[0].seat, action: .legal_actions[0].actions[-1]}' <<<"$step")
      step=$(curl -fsS -H 'content-type: application/json' -d "$request" "$base/v1/games/twenty_two/apply")
      jq -c -n --argjson request "$request" --argjson step "$step" \
        '{seat: $request.seat, action: $request.action, events: $step.events}' >>"$TMP/moves.jsonl"
    done
    body_at "$TMP/typical.json"
    for body in early typical; do
      json "$base/bots/random/move" @"$TMP/$body.json" >/dev/null
      cpu_a=$(cpu_us)
      BODY_FILE="$TMP/$body.json" wrk -t1 -c"$WRK_CONNS" -d"${DURATION}s" -s bench/apply.lua "$base/bots/random/move" \
        >"$OUT/arena_ceiling_$body.txt"
      cpu_b=$(cpu_us)
      calls=$(sed -n 's/^RESULT requests=\([0-9]*\).*/\1/p' "$OUT/arena_ceiling_$body.txt")
      echo "$(grep RESULT "$OUT/arena_ceiling_$body.txt" | sed "s/^RESULT/ceiling-$body/") cpu_us_per_call=$(( (cpu_b - cpu_a) / (calls > 0 ? calls : 1) ))" \
        | tee -a "$OUT/arena_load.txt"
    done
  fi
  if wants sqlite; then
    bots=$(register_bots "$base")
    # Enough matches that the runner never runs dry during the window.
    queue_matches "$base" "$bots" $((MATCHES * 16))
    measure "sqlite-1-process" sqlite "$TMP/arena.db"
  fi
  stop_all
fi

if wants inprocess; then
  base="http://127.0.0.1:$PORT"
  CARDROOM_LOG=warn $BIN serve --port "$PORT" --no-ladder --match-concurrency "$MATCHES" --database "$TMP/inprocess.db" & PIDS+=($!)
  wait_up "$base/healthz"
  random=$(curl -fsS "$base/v1/bots" | jq -c '[.bots[] | select(.builtin and .name == "random") | .id][0]')
  # In process a match takes a few milliseconds: queue enough to outlast the window.
  queue_matches "$base" "[$random,$random,$random,$random]" $((MATCHES * 32))
  measure "sqlite-inprocess" sqlite "$TMP/inprocess.db"
  stop_all
fi

if wants stream; then
  STARTER=${STARTER:-target/release/cardroom-rust-bot}
  [ -x "$STARTER" ] || cargo build --release -q -p cardroom-starter-bot
  base="http://127.0.0.1:$PORT"
  for transport in url stream; do
    CARDROOM_LOG=warn $BIN serve --port "$PORT" --no-ladder --match-concurrency "$MATCHES" --database "$TMP/$transport.db" & PIDS+=($!)
    wait_up "$base/healthz"
    ids=()
    for i in 1 2 3 4; do
      if [ "$transport" = url ]; then
        # Registered while it accepts the unsigned probe, then restarted with its secret.
        port=$((PORT + 10 + i))
        $STARTER --port "$port" --name "url-$i" >/dev/null 2>&1 & probe_pid=$!
        wait_up "http://127.0.0.1:$port/"
        registered=$(json "$base/v1/bots" "{\"name\":\"url-$i\",\"url\":\"http://127.0.0.1:$port\",\"games\":[\"twenty_two\"],\"open_to_challenges\":true}")
        kill "$probe_pid"; wait "$probe_pid" 2>/dev/null || true
        CARDROOM_SIGNING_SECRET=$(jq -r .signing_secret <<<"$registered") $STARTER --port "$port" --name "url-$i" >/dev/null 2>&1 & BOT_PIDS+=($!)
        # Signed now, it answers an unsigned GET / with 401: any answer means it is up.
        for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
      else
        registered=$(json "$base/v1/bots" "{\"name\":\"stream-$i\",\"transport\":\"stream\",\"games\":[\"twenty_two\"],\"open_to_challenges\":true}")
        CARDROOM_TOKEN=$(jq -r .token <<<"$registered") $STARTER --connect "$base" >/dev/null 2>&1 & BOT_PIDS+=($!)
      fi
      ids+=("$(jq -r .id <<<"$registered")")
    done
    bots=$(printf '%s\n' "${ids[@]}" | jq -R . | jq -sc .)
    queue_matches "$base" "$bots" $((MATCHES * 16))
    measure "$transport-starter" sqlite "$TMP/$transport.db"
    stop_all
  done
fi

if wants pg; then
  server=${DATABASE_URL%/*}
  for workers in 1 2 3; do
    db="arena_bench_${workers}_$$"
    psql -qtA "$DATABASE_URL" -c "CREATE DATABASE $db" >/dev/null
    url="$server/$db"
    base="http://127.0.0.1:$PORT"
    CARDROOM_LOG=warn $BIN serve --role api --port "$PORT" --no-ladder --database "$url" & PIDS+=($!)
    wait_up "$base/healthz"
    bots=$(register_bots "$base")
    # Enough matches that none of the workers runs dry during the window.
    queue_matches "$base" "$bots" $(( workers * CONCURRENCY * 16 ))
    for _ in $(seq "$workers"); do
      CARDROOM_LOG=warn $BIN serve --role worker --no-ladder --match-concurrency "$CONCURRENCY" --database "$url" & PIDS+=($!)
    done
    measure "pg-$workers-workers" pg "$url"
    stop_all
  done
fi
