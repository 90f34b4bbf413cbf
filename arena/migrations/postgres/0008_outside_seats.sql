-- cardroom arena schema, version 8 (PostgreSQL): seats whose answers come from outside the
-- worker (stream bots that connect out; later people at a table), who is connected, and the
-- event bus's messages too large for a NOTIFY payload.
--
-- How the arena reaches a bot: `url` (it calls the bot) or `stream` (the bot connects out to
-- `GET /v1/bot/stream`). Built-in bots keep `builtin`.
ALTER TABLE bots ADD COLUMN transport TEXT NOT NULL DEFAULT 'url';
-- A stream bot finds itself by its bearer token.
CREATE INDEX bots_token ON bots (token_hash);

-- A move the runner waits for from outside: one per seat at a time, answered by
-- `POST /v1/bot/matches/{match_id}/move` on any process (the answer is taken by deleting the
-- row, so it is taken once), or dropped by the runner when its deadline passes.
CREATE TABLE pending_moves (
    match_id    TEXT NOT NULL,
    seat        BIGINT NOT NULL,
    request_id  TEXT NOT NULL,
    bot_id      TEXT NOT NULL,
    request     TEXT NOT NULL,               -- the `move` line as sent (JSON)
    created_at  BIGINT NOT NULL,             -- unix ms
    deadline_at BIGINT NOT NULL,             -- unix ms
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX pending_moves_bot ON pending_moves (bot_id, created_at);

-- Who is connected: one live stream per bot (a new connection replaces the old one). The
-- process holding the stream renews `until` with every keep-alive; a process that dies stops
-- renewing it and the bot counts as gone once it passes.
CREATE TABLE bot_connections (
    bot_id        TEXT PRIMARY KEY,
    connection_id TEXT NOT NULL,
    connected_at  BIGINT NOT NULL,           -- unix ms
    until         BIGINT NOT NULL            -- unix ms, database clock
);

-- Bus messages over NOTIFY's 8000-byte payload: the notification carries the row id, every
-- listening process reads the row; rows older than a minute are deleted.
CREATE TABLE bus_messages (
    id         BIGSERIAL PRIMARY KEY,
    topic      TEXT NOT NULL,
    message    TEXT NOT NULL,
    created_at BIGINT NOT NULL               -- unix ms
);
CREATE INDEX bus_messages_created ON bus_messages (created_at);
