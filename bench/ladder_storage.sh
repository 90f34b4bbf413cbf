#!/usr/bin/env bash
# Storage the ladder adds, with the defaults and four registered bots (issue 49: <= 100 MB a day).
# Four URL bots are registered for every game id, at the server's own /bots/heuristic (two) and
# /bots/random (two): registered bots as the arena sees them (called over HTTP, signed, probed).
#
# Two phases on one fresh SQLite file:
#   1. the one-off work, at no pace (--ladder-matches-per-minute 0, rounds every 200 ms) so it
#      ends within minutes: the built-in bots' seeding matches (--ladder-builtin-matches, 50 per
#      game id) and the registered bots' matches until their ratings settle (or $SETTLE_MAX
#      minutes). Reported: matches and moves, split between built-in-only matches (their moves
#      pruned after --retain-builtin-days) and matches with a registered bot (kept), the bytes
#      stored, and from them the mean bytes of a match with a registered bot.
#   2. the steady state, with every default, for $MINUTES minutes (0: skipped): the server
#      restarted on that database; the matches it starts and the bytes it adds. Its first round
#      starts one match per game id at once (the pace is kept in memory), then the settled pace
#      holds: one match per game id an hour.
# The steady state per day: the settled pace (24 matches a day per game id the registered bots
# play) times the mean bytes of a match with a registered bot measured in phase 1, and (as a
# check) phase 2's bytes per minute times 1440 when phase 2 ran.
#
set -euo pipefail
cd "$(dirname "$0")/.."
MINUTES=${MINUTES:-10}
SETTLE_MAX=${SETTLE_MAX:-40}
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

# Phase 1: the one-off work, at no pace.
start --ladder-matches-per-minute 0 --ladder-interval-ms 200
games=$(curl -fsS "$base/v1/games" | jq -c '[.[].id]')
for i in 1 2; do
  for bot in heuristic random; do
    json "$base/v1/bots" "{\"name\":\"url-$bot-$i\",\"url\":\"$base/bots/$bot\",\"games\":$games}" >/dev/null
  done
done
phase1_start=$SECONDS
last=0; quiet_since=$SECONDS
while [ $((SECONDS - phase1_start)) -lt $((SETTLE_MAX * 60)) ]; do
  sleep 10
  now=$(count "SELECT COUNT(*) FROM matches")
  if [ "$now" != "$last" ]; then last=$now; quiet_since=$SECONDS; fi
  [ $((SECONDS - quiet_since)) -ge 60 ] && break
done
stop
seeding=$(count "SELECT COUNT(*) FROM matches m WHERE ranked AND $BUILTIN_ONLY")
registered=$(count "SELECT COUNT(*) FROM matches m WHERE ranked AND NOT $BUILTIN_ONLY")
seeding_moves=$(count "SELECT COUNT(*) FROM match_moves mm JOIN matches m ON m.seq = mm.match_seq WHERE $BUILTIN_ONLY")
all_moves=$(count "SELECT COUNT(*) FROM match_moves")
unsettled=$(count "SELECT COUNT(*) FROM ratings r JOIN bots b ON b.id = r.rated_id WHERE r.kind = 'bot' AND b.builtin = 0 AND r.sigma >= 3.5")
phase1_bytes=$(size)
game_ids=$(echo "$games" | jq length)
# The bytes of a match with a registered bot: the stored bytes in proportion to its moves.
per_registered=$(( phase1_bytes * (all_moves - seeding_moves) / (all_moves > 0 ? all_moves : 1) / (registered > 0 ? registered : 1) ))
steady=$(( 24 * game_ids * per_registered ))
echo "phase 1 (one-off, $(( (SECONDS - phase1_start) / 60 )) min at no pace): $seeding seeding matches ($seeding_moves moves), $registered with a registered bot ($((all_moves - seeding_moves)) moves); $phase1_bytes bytes; registered ratings still unsettled: $unsettled"

echo "a match with a registered bot: $per_registered bytes; settled pace, $game_ids game ids: $((steady / 1000000)) MB a day"

# Phase 2: every default, for $MINUTES minutes.
grown=0; matches=0; per_day=0
if [ "$MINUTES" -gt 0 ]; then
  start
  before=$(size); before_matches=$(count "SELECT COUNT(*) FROM matches")
  sleep $((MINUTES * 60))
  after=$(size); after_matches=$(count "SELECT COUNT(*) FROM matches")
  stop
  grown=$((after - before)); matches=$((after_matches - before_matches))
  per_day=$((grown * 1440 / MINUTES))
  echo "phase 2 (defaults, $MINUTES min): $matches matches, $grown bytes ($((per_day / 1000000)) MB a day at that rate, the restart's first round included)"
fi
jq -nc --argjson seeding "$seeding" --argjson registered "$registered" --argjson phase1 "$phase1_bytes" \
  --argjson per_registered "$per_registered" --argjson steady "$steady" --argjson unsettled "$unsettled" \
  --argjson minutes "$MINUTES" --argjson grown "$grown" --argjson matches "$matches" --argjson per_day "$per_day" \
  '{one_off: {seeding_matches: $seeding, registered_matches: $registered, bytes: $phase1, unsettled_registered_ratings: $unsettled},
    registered_match_bytes: $per_registered, steady_bytes_per_day: $steady,
    phase2: {minutes: $minutes, matches: $matches, bytes: $grown, bytes_per_day: $per_day}}'
