-- cardroom arena schema, version 2 (SQLite): matches as a durable queue.
-- A worker claims a match by writing its id and a lease (database clock, unix ms) on the row and
-- renews the lease while it plays; a running match whose lease ran out is claimed again and
-- resumed from its logged moves.
ALTER TABLE matches ADD COLUMN lease_owner TEXT;
ALTER TABLE matches ADD COLUMN lease_until INTEGER;
-- The order in which ranked results moved ratings (1, 2, ...): replaying results in this order
-- gives the stored ratings.
ALTER TABLE matches ADD COLUMN rating_seq INTEGER;
CREATE INDEX IF NOT EXISTS matches_rating_seq ON matches (rating_seq);
-- One row per built-in bot, however many processes register them at once.
CREATE UNIQUE INDEX IF NOT EXISTS bots_builtin_url ON bots (url) WHERE builtin = 1 AND deleted = 0;
