-- cardroom arena schema, version 12 (SQLite): a competition no one client can rig.
--
-- Consent: a registered bot is seated by anyone only once its owner opened it to challenges;
-- otherwise only by the ladder, its owner's token or the admin. Built-in bots are open.
ALTER TABLE bots ADD COLUMN open_to_challenges INTEGER NOT NULL DEFAULT 0;
UPDATE bots SET open_to_challenges = 1 WHERE builtin = 1;

-- Who created each match: `ladder`, `admin`, `owner` (a bot owner's token: `creator_bot` names
-- the bot) or `client` (no token: an anonymous client address), and a stable key of that client
-- (`ladder`, `admin`, `bot:<id>`, `addr:<ip>`). Faults in a match created by someone other than
-- the ladder or the bot's owner never count toward the bot's pause. NULL in matches created
-- before version 12 (the ladder's are marked).
ALTER TABLE matches ADD COLUMN creator_kind TEXT;
ALTER TABLE matches ADD COLUMN creator_bot TEXT;
ALTER TABLE matches ADD COLUMN creator_key TEXT;
UPDATE matches SET creator_kind = 'ladder', creator_key = 'ladder' WHERE ladder = 1;

-- A pending move whose stream bot is away within its reconnect grace: the time it has left,
-- frozen (NULL while its time runs to `deadline_at`).
ALTER TABLE pending_moves ADD COLUMN frozen_left_ms INTEGER;

-- Ratings per game id and table size, per rated entity (`kind` 'bot': `rated_id` is a bot id;
-- another kind of rated player gets its own kind). One rating per game id mixed 2-, 3- and
-- 4-player tables; they are rebuilt from the ranked results in the order they were rated (the
-- arena does it when it opens the database, once: `rating_rebuild` holds the request).
DROP TABLE IF EXISTS ratings;
CREATE TABLE ratings (
    kind       TEXT NOT NULL DEFAULT 'bot',
    rated_id   TEXT NOT NULL,
    game       TEXT NOT NULL,
    players    INTEGER NOT NULL,             -- the table size
    mu         REAL NOT NULL,
    sigma      REAL NOT NULL,
    played     INTEGER NOT NULL,
    wins       INTEGER NOT NULL DEFAULT 0,
    draws      INTEGER NOT NULL DEFAULT 0,
    losses     INTEGER NOT NULL DEFAULT 0,
    faults     INTEGER NOT NULL DEFAULT 0,
    last_match TEXT,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (kind, rated_id, game, players)
) WITHOUT ROWID;
-- A leaderboard: one game id and table size.
CREATE INDEX ratings_board ON ratings (kind, game, players);
ALTER TABLE rating_history ADD COLUMN players INTEGER;
UPDATE rating_history SET players =
    (SELECT COUNT(*) FROM match_seats s WHERE s.match_id = rating_history.match_id);
CREATE INDEX rating_history_bot_size ON rating_history (bot_id, game, players, at, match_id);
CREATE TABLE rating_rebuild (id INTEGER PRIMARY KEY CHECK (id = 1));
INSERT INTO rating_rebuild (id) SELECT 1 WHERE EXISTS (SELECT 1 FROM matches WHERE rating_seq IS NOT NULL);
