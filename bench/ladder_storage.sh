#!/usr/bin/env bash
# Storage the ladder adds, with the defaults and four registered bots (issue 49: <= 100 MB a day).
# Four URL bots are registered for every game id, at the server's own /bots/heuristic (two) and
# /bots/random (two): registered bots as the arena sees them (called over HTTP, signed, probed).
#
# One fresh SQLite file, the server with every default, for $MINUTES minutes: the ladder's first
# day, its busiest (the built-in bots' seeding matches, every registered bot's rating unsettled,
# so every game id would play at its full pace). The ladder's daily budget
# (--ladder-matches-per-day, default 5000, a burst of an hour's share) bounds it. Reported: the
# matches started (seeding, with a registered bot), the bytes stored (database + WAL - free,
# after a TRUNCATE checkpoint), the bytes of a match, the pace once the first burst is spent
# (matches a minute over the second half of the run), and the day from them:
#   - bound: (budget + burst) x the bytes of a match;
#   - measured rate: the second half's bytes a minute x 1440 (+ the burst's bytes).
# PER_DAY=N passes --ladder-matches-per-day N (the figure's budget follows it).
set -euo pipefail
cd "$(dirname "$0")/.."
MINUTES=${MINUTES:-30}
PER_DAY=${PER_DAY:-5000}
PORT=${PORT:-18196}
for tool in curl jq sqlite3; do
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
DB="$TMP/ladder.db"
base="http://127.0.0.1:$PORT"
json() { curl -fsS -H 'content-type: application/json' -d "$2" "$1"; }
start() {
  CARDROOM_LOG=warn "$BIN" serve --database "$DB" --port "$PORT" "$@" >>"$TMP/server.log" 2>&1 &
  SERVER=$!
  for _ in $(seq 300); do curl -fs "$base/readyz" >/dev/null 2>&1 && return; sleep 0.1; done
  echo "the server did not start" >&2; exit 1
}
stop() { kill "$SERVER"; wait "$SERVER" 2>/dev/null || true; SERVER=; }
# The database's bytes once its log is checkpointed (read beside the running server).
size() {
  sqlite3 "$DB" 'PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null 2>&1 || true
  "$BIN" db size --database "$DB" | jq '.database + .wal - .free'
}
count() { sqlite3 "$DB" "$1"; }
BUILTIN_ONLY="NOT EXISTS (SELECT 1 FROM match_seats s JOIN bots b ON b.id = s.bot_id WHERE s.match_id = m.id AND b.builtin = 0)"

start --ladder-matches-per-day "$PER_DAY"
games=$(curl -fsS "$base/v1/games" | jq -c '[.[].id]')
for i in 1 2; do
  for bot in heuristic random; do
    json "$base/v1/bots" "{\"name\":\"url-$bot-$i\",\"url\":\"$base/bots/$bot\",\"games\":$games}" >/dev/null
  done
done
half=$((MINUTES * 30))
sleep "$half"
mid_bytes=$(size); mid_matches=$(count "SELECT COUNT(*) FROM matches")
sleep "$half"
end_bytes=$(size); end_matches=$(count "SELECT COUNT(*) FROM matches")
stop
seeding=$(count "SELECT COUNT(*) FROM matches m WHERE ranked AND $BUILTIN_ONLY")
registered=$(count "SELECT COUNT(*) FROM matches m WHERE ranked AND NOT $BUILTIN_ONLY")
moves=$(count "SELECT COUNT(*) FROM match_moves")
per_match=$(( end_bytes / (end_matches > 0 ? end_matches : 1) ))
burst=$(( PER_DAY / 24 ))
bound=$(( (PER_DAY + burst) * per_match ))
second_half_per_min=$(( (end_matches - mid_matches) * 60 / (half > 0 ? half : 1) ))
measured=$(( (end_bytes - mid_bytes) * 1440 * 60 / (half > 0 ? half : 1) + burst * per_match ))
echo "day one at the defaults, $MINUTES min: $end_matches matches ($seeding seeding, $registered with a registered bot, $moves moves), $end_bytes bytes, $per_match bytes a match"
echo "second half: $((end_matches - mid_matches)) matches ($second_half_per_min a minute), $((end_bytes - mid_bytes)) bytes"
echo "a day: at most $((bound / 1000000)) MB by the budget; $((measured / 1000000)) MB at the second half's rate"
jq -nc --argjson minutes "$MINUTES" --argjson per_day "$PER_DAY" --argjson matches "$end_matches" \
  --argjson seeding "$seeding" --argjson registered "$registered" --argjson moves "$moves" \
  --argjson bytes "$end_bytes" --argjson per_match "$per_match" \
  --argjson half_matches "$((end_matches - mid_matches))" --argjson half_bytes "$((end_bytes - mid_bytes))" \
  --argjson bound "$bound" --argjson measured "$measured" \
  '{minutes: $minutes, ladder_matches_per_day: $per_day, matches: $matches, seeding_matches: $seeding,
    registered_matches: $registered, moves: $moves, bytes: $bytes, bytes_per_match: $per_match,
    second_half: {matches: $half_matches, bytes: $half_bytes},
    day_bytes_bound: $bound, day_bytes_at_second_half_rate: $measured}'
