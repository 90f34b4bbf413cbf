# Sourced by .ci/run: starts a throwaway PostgreSQL cluster on 127.0.0.1 for the arena's
# PostgreSQL store tests and exports DATABASE_URL (unless DATABASE_URL is already set). The
# cluster is stopped and deleted when the gate exits.
if [ -z "${DATABASE_URL:-}" ]; then
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    apt-get update -q && apt-get install -y -q postgresql
  fi
  PG_BIN=$(dirname "$(ls /usr/lib/postgresql/*/bin/initdb | sort -V | tail -1)")
  PG_DIR=$(mktemp -d /tmp/cardroom-pg.XXXXXX)
  PG_PORT=$((20000 + RANDOM % 20000))
  as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi; }
  [ "$(id -u)" = 0 ] && chown postgres "$PG_DIR"
  as_pg "$PG_BIN/initdb -D $PG_DIR/data -U postgres --auth=trust >$PG_DIR/initdb.log 2>&1"
  as_pg "$PG_BIN/pg_ctl -D $PG_DIR/data -w -l $PG_DIR/pg.log -o '-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1' start >/dev/null"
  trap 'as_pg "$PG_BIN/pg_ctl -D $PG_DIR/data -m immediate stop >/dev/null 2>&1"; rm -rf "$PG_DIR"' EXIT
  export DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/postgres"
fi
