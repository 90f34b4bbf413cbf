-- cardroom arena schema, version 11 (PostgreSQL): watchable matches and provably fair deals.
--
-- Each move of a match is held at least `pace_ms` after the previous one was published, for
-- spectators (0: no hold).
ALTER TABLE matches ADD COLUMN pace_ms BIGINT NOT NULL DEFAULT 0;
-- The random salt of the seed commitment (64 hex digits): SHA-256 of "<seed>:<salt>" is shown
-- from the start, the seed and the salt once the match is over. NULL for matches from before
-- version 11 (they show no commitment).
ALTER TABLE matches ADD COLUMN seed_salt TEXT;
