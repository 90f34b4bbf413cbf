-- cardroom arena schema, version 5 (SQLite): storage that stays small and reads that stay fast
-- however long the arena runs.
--
-- Every match gets an integer sequence number (insertion order). Moves are keyed by it instead of
-- the match's random text id: a running match's moves go to the right edge of the B-tree, next to
-- the other running matches' moves, so a commit touches few pages and the key costs a few bytes.
ALTER TABLE matches ADD COLUMN seq INTEGER;
UPDATE matches SET seq = rowid;
CREATE UNIQUE INDEX IF NOT EXISTS matches_seq ON matches (seq);
-- Retention (`--retain-unranked-days`): when an unranked match's moves may start to age (its
-- finish), NULL for ranked matches (their moves justify ratings) and once the moves are pruned.
ALTER TABLE matches ADD COLUMN prunable_since INTEGER;
ALTER TABLE matches ADD COLUMN moves_pruned INTEGER NOT NULL DEFAULT 0;
UPDATE matches SET prunable_since = finished_at WHERE ranked = 0 AND finished_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS matches_prunable ON matches (prunable_since);

-- The moves as they must be replayed: who acted, the action, what the bot said and how long it
-- took. Events are not stored: replaying the actions through the engine gives them back.
CREATE TABLE IF NOT EXISTS match_moves (
    match_seq  INTEGER NOT NULL,             -- matches.seq
    idx        INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    action     TEXT NOT NULL,                -- JSON
    latency_ms INTEGER NOT NULL,
    fault      TEXT,                         -- JSON {kind, detail} or NULL
    comment    TEXT,
    PRIMARY KEY (match_seq, idx)
) WITHOUT ROWID;
INSERT INTO match_moves (match_seq, idx, seat, action, latency_ms, fault, comment)
SELECT m.seq, mv.idx, mv.seat, mv.action, mv.latency_ms, mv.fault, mv.comment
FROM moves mv JOIN matches m ON m.id = mv.match_id;
DROP TABLE moves;

-- A bot's matches, newest first, from an index (the bot pages, `GET /v1/matches?bot=`): the
-- match's game and creation time are copied onto its seats.
ALTER TABLE match_seats ADD COLUMN game TEXT NOT NULL DEFAULT '';
ALTER TABLE match_seats ADD COLUMN created_at INTEGER NOT NULL DEFAULT 0;
UPDATE match_seats SET
    game = (SELECT m.game FROM matches m WHERE m.id = match_seats.match_id),
    created_at = (SELECT m.created_at FROM matches m WHERE m.id = match_seats.match_id);
DROP INDEX IF EXISTS match_seats_bot;
CREATE INDEX IF NOT EXISTS match_seats_bot_recent ON match_seats (bot_id, created_at, match_id);
CREATE INDEX IF NOT EXISTS match_seats_bot_game ON match_seats (bot_id, game, created_at, match_id);

-- Every match, newest first; a game's matches, newest first.
CREATE INDEX IF NOT EXISTS matches_recent ON matches (created_at, id);
DROP INDEX IF EXISTS matches_game;
CREATE INDEX IF NOT EXISTS matches_game_recent ON matches (game, created_at, id);
-- A game's leaderboard.
CREATE INDEX IF NOT EXISTS ratings_game ON ratings (game);
