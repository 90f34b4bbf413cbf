# Shared set-up of the scripts that count a server's instructions under callgrind
# (apply_instructions.sh, arena_instructions.sh); sourced, not run. Sets CARDROOM_BIN (built
# when unset), a scratch directory and a trap that stops the server started into $server.
# Usage: . bench/callgrind_server.sh tool...   (the tools the script needs besides valgrind's)
for tool in valgrind callgrind_control callgrind_annotate "$@"; do
  command -v "$tool" >/dev/null || { echo "missing $tool (apt-get install -y valgrind $*)" >&2; exit 2; }
done
if [ -z "${CARDROOM_BIN:-}" ]; then
  cargo build --release -q -p api --bin cardroom
  CARDROOM_BIN=target/release/cardroom
fi
scratch=$(mktemp -d)
server=
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null; rm -rf "$scratch"; true; }
trap cleanup EXIT
