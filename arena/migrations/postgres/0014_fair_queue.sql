-- cardroom arena schema, version 14 (PostgreSQL): a queue fair between clients.
--
-- The lane a match waits in: `people` (a table with people: slots of its own, taken first),
-- `ladder` (the ranked ladder and its trial matches) or `clients` (every other match, taken
-- round robin by the client that created it, `creator_key`). Decided when the match is stored.
ALTER TABLE matches ADD COLUMN lane TEXT NOT NULL DEFAULT 'clients';
-- Matches still to play take their lane; ended ones keep the default (no claim reads them).
UPDATE matches SET lane = 'ladder'
WHERE status IN ('waiting', 'queued', 'running') AND (creator_kind = 'ladder' OR ladder);
UPDATE matches SET lane = 'people'
WHERE status IN ('waiting', 'queued', 'running')
  AND EXISTS (SELECT 1 FROM match_seats s WHERE s.match_id = matches.id AND s.bot_id = 'person');
-- Matches stored before creators were kept share one client.
UPDATE matches SET creator_key = 'unknown'
WHERE creator_key IS NULL AND status IN ('waiting', 'queued', 'running');

-- The claim: a client's oldest queued match in a lane, how many it runs there, and how many it
-- has queued (the cap per client).
CREATE INDEX IF NOT EXISTS matches_queue ON matches (status, lane, creator_key, created_at, id);
-- Round robin: when each client's newest match started (the client served longest ago goes next).
CREATE INDEX IF NOT EXISTS matches_client_started ON matches (creator_key, started_at);
