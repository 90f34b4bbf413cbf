-- cardroom arena schema, version 16 (PostgreSQL): people as players, and the lobby.
--
-- A player is a person with a name and a token (kept as its hash; no password, no e-mail). A
-- table seat may hold a player (`table_seats.player_id`): the seat is joined with its link and
-- the player's token, and a rated table rates the player in `ratings` under `kind` 'player'.
CREATE TABLE IF NOT EXISTS players (
    id         TEXT PRIMARY KEY,             -- `p_` + 16 hex digits
    name       TEXT NOT NULL,                -- unique: people's names link to their page
    token_hash TEXT NOT NULL,                -- hex SHA-256 of the player's token
    created_at BIGINT NOT NULL               -- unix milliseconds
);
CREATE UNIQUE INDEX IF NOT EXISTS players_name ON players (name);
CREATE UNIQUE INDEX IF NOT EXISTS players_token ON players (token_hash);

ALTER TABLE table_seats ADD COLUMN player_id TEXT REFERENCES players (id);
-- A player's recent tables.
CREATE INDEX IF NOT EXISTS table_seats_player ON table_seats (player_id, table_id)
    WHERE player_id IS NOT NULL;

-- Every table newest first (the lobby reads the waiting ones through matches' status index).
CREATE INDEX IF NOT EXISTS tables_recent ON tables (created_at, id);

-- "Play again": a finished table's rematch (one per table: every seat asking for it gets the
-- same table), and the secret its seats' new keys are derived from (each seat's new key from
-- the secret and the seat's old key hash: only the arena can derive it, and only for a seat that
-- proves its old key).
ALTER TABLE tables ADD COLUMN rematch_id TEXT;
ALTER TABLE tables ADD COLUMN rematch_secret TEXT;
