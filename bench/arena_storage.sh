#!/usr/bin/env bash
# Bytes stored and written per move: $MATCHES unranked 4-player twenty_two matches played by one
# `cardroom serve` on a fresh SQLite file (the default database), four bots: the built-in
# `random` and `heuristic` (in process) and two URL bots at the server's own /bots/random.
#
#   stored   growth of the database (file + write-ahead log, then a checkpoint) per move
#   written  bytes SQLite wrote to the database and its write-ahead log (log frames and
#            checkpoints: every pwrite64 on those two files, counted with strace) per move, and
#            write_bytes of /proc/PID/io (what reached the block layer) where the kernel counts
#            it. (wchar is no measure here: it also counts the HTTP calls to the URL bots.)
#   wal peak the largest write-ahead log seen, sampled every 100 ms
# Goal (issue 38): stored <= 1 KB, written <= 2 KB per move.
#
# Needs curl, jq and strace. Bounded: $MATCHES matches (a few seconds each at most) plus a release build.
#   bench/arena_storage.sh
#   BIN=/tmp/cardroom-before bench/arena_storage.sh   # another binary (an older schema)
set -euo pipefail
cd "$(dirname "$0")/.."
export CARDROOM_MATCHES_PER_MINUTE=0 CARDROOM_REGISTRATIONS_PER_MINUTE=0
# One client (this script) queues every match: without these, 8 of them would run at once
# (the fair queue's per-client cap, issue 48q) whatever --match-concurrency says.
export CARDROOM_MAX_QUEUED_PER_CLIENT=0 CARDROOM_MAX_RUNNING_PER_CLIENT=0
MATCHES=${MATCHES:-60}
PORT=${PORT:-18195}
for tool in curl jq strace; do
  command -v "$tool" >/dev/null || { echo "missing $tool (apt-get install -y $tool)" >&2; exit 1; }
done
if [ -z "${BIN:-}" ]; then
  cargo build --release -q -p api --bin cardroom
  BIN=target/release/cardroom
fi
TMP=$(mktemp -d)
SERVER=
cleanup() { [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null; [ -n "${KEEP:-}" ] && echo "kept $TMP" || rm -rf "$TMP"; true; }
trap cleanup EXIT
json() { curl -fsS -H 'content-type: application/json' -d "$2" "$1"; }
io() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/io"; }
DB="$TMP/storage.db"
base="http://127.0.0.1:$PORT"
CARDROOM_LOG=warn "$BIN" serve --no-ladder --database "$DB" --port "$PORT" >"$TMP/server.log" 2>&1 &
SERVER=$!
for _ in $(seq 200); do curl -fs "$base/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
url_bots=()
for i in 1 2; do
  url_bots+=("$(json "$base/v1/bots" "{\"name\":\"url-random-$i\",\"url\":\"$base/bots/random\",\"games\":[\"twenty_two\"],\"open_to_challenges\":true}" | jq -r .id)")
done
bots=$(printf '%s\n' random heuristic "${url_bots[@]}" | jq -R . | jq -sc .)
size_before=$(( $(stat -c %s "$DB") + $(stat -c %s "$DB-wal" 2>/dev/null || echo 0) ))
wbytes_before=$(io "$SERVER" write_bytes)
# Every write to the database files from here on (all threads; -y names each file descriptor).
strace -f -qq -y -e trace=pwrite64,write -e signal=none -o "$TMP/writes" -p "$SERVER" &
STRACE=$!
sleep 1
ids=()
for _ in $(seq "$MATCHES"); do
  ids+=("$(json "$base/v1/matches" "{\"game\":\"twenty_two\",\"bots\":$bots}" | jq -r .id)")
done
wal_peak=0
while :; do
  wal=$(stat -c %s "$DB-wal" 2>/dev/null || echo 0)
  [ "$wal" -gt "$wal_peak" ] && wal_peak=$wal
  left=$(curl -fsS "$base/v1/matches?limit=$MATCHES" | jq '[.matches[] | select(.status == "queued" or .status == "running")] | length')
  [ "$left" = 0 ] && break
  sleep 0.1
done
wbytes_after=$(io "$SERVER" write_bytes)
kill "$STRACE"; wait "$STRACE" 2>/dev/null || true
# `pwrite64(7</tmp/x/storage.db-wal>, "...", 1048, 5160) = 1048`: the result after `=`.
# Bytes written to file $1: the result of every pwrite64/write on it (a call strace split into
# "unfinished" and "resumed" lines is counted from the line that names the file).
written_to() { python3 - "$TMP/writes" "$1" <<'PY'
import re, sys
total = 0
for line in open(sys.argv[1], errors="replace"):
    if re.match(r"^\d+ +p?write(64)?\(\d+<" + re.escape(sys.argv[2]) + ">", line):
        done = re.search(r"\) += (\d+)\s*$", line)
        total += int(done.group(1)) if done else 0
print(total)
PY
}
wal_written=$(written_to "$DB-wal")
file_written=$(written_to "$DB")
db_written=$(( wal_written + file_written ))
moves=0
for id in "${ids[@]}"; do
  moves=$(( moves + $(curl -fsS "$base/v1/matches/$id" | jq '.moves | length') ))
done
size_end=$(( $(stat -c %s "$DB") + $(stat -c %s "$DB-wal" 2>/dev/null || echo 0) ))
kill "$SERVER"; wait "$SERVER" 2>/dev/null || true; SERVER=
size_after=$("$BIN" db size --database "$DB" 2>/dev/null | jq '.database + .wal' || echo "$size_end")
jq -n --argjson matches "$MATCHES" --argjson moves "$moves" \
  --argjson stored "$(( size_after - size_before ))" \
  --argjson written "$db_written" \
  --argjson wbytes "$(( wbytes_after - wbytes_before ))" \
  --argjson wal_peak "$wal_peak" \
  --argjson wal_written "$wal_written" --argjson file_written "$file_written" \
  '{matches: $matches, moves: $moves,
    stored_bytes_per_move: (($stored / $moves) | floor),
    written_bytes_per_move: (($written / $moves) | floor),
    block_written_bytes_per_move: (($wbytes / $moves) | floor),
    log_bytes_per_move: (($wal_written / $moves) | floor),
    checkpoint_bytes_per_move: (($file_written / $moves) | floor),
    wal_peak_bytes: $wal_peak}'
