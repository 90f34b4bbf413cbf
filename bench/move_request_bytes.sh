#!/usr/bin/env bash
# Bytes per move request, full and delta history (issue 41's goal: the median request of a
# 4-player twenty_two match at most 2 KB in delta mode). One server; two recording bots (Python's
# standard library), one registered with "history": "full", one with "delta", seated together
# twice in each 4-player match: seats [full, delta, full, delta], so both
# modes see the same matches. Prints the median and the largest request body of each mode.
# Needs curl, jq and python3; installs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
GAME=${GAME:-twenty_two}
MATCHES=${MATCHES:-5}
PORT=${PORT:-18490}
TARGET=${CARGO_TARGET_DIR:-target}
if [ -z "${BIN:-}" ]; then
  cargo build --release -q -p api --bin cardroom
fi
BIN=${BIN:-$TARGET/release/cardroom}
TMP=$(mktemp -d)
trap 'kill $SERVER $FULL $DELTA 2>/dev/null || true; rm -rf "$TMP"' EXIT
CARDROOM_LOG=warn $BIN serve --port "$PORT" --no-ladder --database "$TMP/bytes.db" & SERVER=$!
base="http://127.0.0.1:$PORT"
for _ in $(seq 100); do curl -fs "$base/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
# A bot that answers the first legal action and appends each request's size to a file.
cat > "$TMP/bot.py" <<'PY'
import http.server, json, sys
sizes = open(sys.argv[2], "a")
class Bot(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def reply(self, body):
        body = json.dumps(body).encode()
        self.send_response(200); self.send_header("content-length", str(len(body))); self.end_headers()
        self.wfile.write(body)
    def log_message(self, *_): pass
    def do_GET(self):
        self.reply({"name": "bytes", "author": "bench", "version": "1", "games": [sys.argv[3]]})
    def do_POST(self):
        body = self.rfile.read(int(self.headers["content-length"]))
        if self.path == "/move":
            request = json.loads(body)
            info = len(request.get("info", "")) + len(',"info":""') if "info" in request else 0
            sizes.write(f"{len(body)} {len(body) - info}\n"); sizes.flush()
            self.reply({"action": request["legal_actions"][0]})
        else:
            self.reply({})
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Bot).serve_forever()
PY
python3 "$TMP/bot.py" $((PORT + 1)) "$TMP/full.txt" "$GAME" & FULL=$!
python3 "$TMP/bot.py" $((PORT + 2)) "$TMP/delta.txt" "$GAME" & DELTA=$!
for port in $((PORT + 1)) $((PORT + 2)); do
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/" >/dev/null 2>&1 && break; sleep 0.1; done
done
register() {
  curl -fsS -H 'content-type: application/json' "$base/v1/bots" \
    -d "{\"name\": \"$1\", \"url\": \"http://127.0.0.1:$2\", \"games\": [\"$GAME\"], \"history\": \"$1\", \"open_to_challenges\": true}" | jq -r .id
}
full=$(register full $((PORT + 1)))
delta=$(register delta $((PORT + 2)))
for seed in $(seq "$MATCHES"); do
  id=$(curl -fsS -H 'content-type: application/json' "$base/v1/matches" \
    -d "{\"game\": \"$GAME\", \"bots\": [\"$full\", \"$delta\", \"$full\", \"$delta\"], \"seed\": $seed}" | jq -r .id)
  until [ "$(curl -fsS "$base/v1/matches/$id" | jq -r .status)" = finished ]; do sleep 0.2; done
done
# Median and largest body, and the median without its `info` (the sealed position).
stats() {
  without=$(awk '{print $2}' "$1" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  sort -n "$1" | awk -v mode="$2" -v without="$without" '{a[NR]=$1; s+=$1} END {printf "%s: %d requests, median %d bytes (%d without info), max %d, %.0f KB per match per bot\n", mode, NR, a[int((NR+1)/2)], without, a[NR], s / 1024 / '"$MATCHES"'}'
}
echo "$GAME, 4 players, $MATCHES matches (seats: full, delta, full, delta; first legal actions)"
stats "$TMP/full.txt" full
stats "$TMP/delta.txt" delta
