-- cardroom arena schema, version 15 (SQLite): storage the ladder does not fill, and the seal key
-- a database was used with.
--
-- Retention of ranked matches between built-in bots alone (`--retain-builtin-days`): when such a
-- match's moves may start to age (its finish); NULL for every other match and once the moves are
-- pruned. Their results and rating changes stay; they seed the built-in bots' ratings, and
-- nobody replays them.
ALTER TABLE matches ADD COLUMN builtin_prunable_since INTEGER;
UPDATE matches SET builtin_prunable_since = finished_at
WHERE ranked = 1 AND moves_pruned = 0 AND status = 'finished' AND finished_at IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM match_seats s JOIN bots b ON b.id = s.bot_id
                  WHERE s.match_id = matches.id AND b.builtin = 0);
CREATE INDEX IF NOT EXISTS matches_builtin_prunable ON matches (builtin_prunable_since)
    WHERE builtin_prunable_since IS NOT NULL;

-- A fingerprint of the seal key the database was used with (SHA-256 of a fixed label and the key,
-- never the key): a server started with another key, or without the key file a restored backup
-- lost, refuses to start instead of silently sealing with a new one (`--new-seal-key` replaces it).
CREATE TABLE IF NOT EXISTS seal_key_check (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    fingerprint TEXT NOT NULL,
    recorded_at INTEGER NOT NULL           -- unix ms
);
