-- cardroom arena schema, version 3 (SQLite): unique bot names, ladder health over a time window,
-- match clocks, win/draw/loss/fault counts on the leaderboard.
-- Names are unique among live bots (a deleted bot frees its name). Older databases may hold
-- duplicates: every duplicate but the oldest gets its id appended, so the index can be built.
UPDATE bots SET name = substr(name, 1, 40) || ' (' || id || ')'
WHERE deleted = 0 AND EXISTS (
    SELECT 1 FROM bots o WHERE o.deleted = 0 AND o.name = bots.name
    AND (o.created_at < bots.created_at OR (o.created_at = bots.created_at AND o.id < bots.id))
);
CREATE UNIQUE INDEX IF NOT EXISTS bots_name ON bots (name) WHERE deleted = 0;
-- When the current failure streak began (unix ms; NULL when healthy) and when the ladder may
-- probe the bot again (back-off after a failed probe).
ALTER TABLE bots ADD COLUMN failing_since INTEGER;
ALTER TABLE bots ADD COLUMN retry_at INTEGER;
-- A time bank per seat (NULL: no bank, only the per-move deadline).
ALTER TABLE matches ADD COLUMN clock_initial_ms INTEGER;
ALTER TABLE matches ADD COLUMN clock_increment_ms INTEGER;
-- Ranked results per bot and game (rows written before version 3 count from zero).
ALTER TABLE ratings ADD COLUMN wins INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ratings ADD COLUMN draws INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ratings ADD COLUMN losses INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ratings ADD COLUMN faults INTEGER NOT NULL DEFAULT 0;
