-- cardroom arena schema, version 13 (SQLite): safe retries of creates (`Idempotency-Key`), and
-- the indexes of the lists' status filter and the bots' pages.
--
-- One row per key a client sent to a create route, for 24 hours (maintenance prunes older ones).
-- Nothing in it is readable without the client's key: the lookup is a hash of the client, the
-- route and the key, and the stored answer (which may hold a new bot's owner token) is sealed
-- under a key derived from the server's key and the client's.
CREATE TABLE IF NOT EXISTS idempotency_keys (
    key_hash     TEXT PRIMARY KEY,      -- hex SHA-256 of the client's identity, the route, the key
    request_hash TEXT NOT NULL,         -- hex SHA-256 of the body (its JSON in canonical form)
    answer       TEXT,                  -- the first answer, sealed; NULL while the first request runs
    locked_until INTEGER NOT NULL,      -- unix ms: a retry waits for the first answer until then
    created_at   INTEGER NOT NULL       -- unix ms
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS idempotency_keys_created ON idempotency_keys (created_at);

-- `GET /v1/matches?status=`: newest first within a status.
CREATE INDEX IF NOT EXISTS matches_status_recent ON matches (status, created_at, id);
-- `GET /v1/bots` pages in the order of registration.
CREATE INDEX IF NOT EXISTS bots_registered ON bots (created_at, id);
