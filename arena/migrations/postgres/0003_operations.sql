-- cardroom arena schema, version 3 (PostgreSQL): unique bot names, ladder health over a time
-- window, match clocks, win/draw/loss/fault counts on the leaderboard.
-- Names are unique among live bots (a deleted bot frees its name). Older databases may hold
-- duplicates: every duplicate but the oldest gets its id appended, so the index can be built.
UPDATE bots SET name = substr(name, 1, 40) || ' (' || id || ')'
WHERE NOT deleted AND EXISTS (
    SELECT 1 FROM bots o WHERE NOT o.deleted AND o.name = bots.name
    AND (o.created_at < bots.created_at OR (o.created_at = bots.created_at AND o.id < bots.id))
);
CREATE UNIQUE INDEX bots_name ON bots (name) WHERE NOT deleted;
-- When the current failure streak began (unix ms; NULL when healthy) and when the ladder may
-- probe the bot again (back-off after a failed probe).
ALTER TABLE bots ADD COLUMN failing_since BIGINT;
ALTER TABLE bots ADD COLUMN retry_at BIGINT;
-- A time bank per seat (NULL: no bank, only the per-move deadline).
ALTER TABLE matches ADD COLUMN clock_initial_ms BIGINT;
ALTER TABLE matches ADD COLUMN clock_increment_ms BIGINT;
-- Ranked results per bot and game (rows written before version 3 count from zero).
ALTER TABLE ratings ADD COLUMN wins BIGINT NOT NULL DEFAULT 0;
ALTER TABLE ratings ADD COLUMN draws BIGINT NOT NULL DEFAULT 0;
ALTER TABLE ratings ADD COLUMN losses BIGINT NOT NULL DEFAULT 0;
ALTER TABLE ratings ADD COLUMN faults BIGINT NOT NULL DEFAULT 0;
