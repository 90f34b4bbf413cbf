-- cardroom arena schema, version 4 (SQLite): duplicate tournaments.
-- A tournament is a set of ordinary matches: each deal (one seed) played once per rotation of the
-- seats, so every bot holds every seat's cards of every deal.
CREATE TABLE IF NOT EXISTS tournaments (
    id             TEXT PRIMARY KEY,
    game           TEXT NOT NULL,
    options        TEXT NOT NULL,          -- JSON object of option overrides
    seed           INTEGER NOT NULL,       -- the tournament's seed; deal seeds derive from it
    deals          INTEGER NOT NULL,
    seat_rotations INTEGER NOT NULL,
    deadline_ms    INTEGER NOT NULL,
    bots           TEXT NOT NULL,          -- JSON array of bot ids in seat order (rotation 0)
    created_at     INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS tournaments_created ON tournaments (created_at);

CREATE TABLE IF NOT EXISTS tournament_matches (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    match_id      TEXT NOT NULL REFERENCES matches (id),
    deal          INTEGER NOT NULL,
    rotation      INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, deal, rotation)
);
CREATE UNIQUE INDEX IF NOT EXISTS tournament_matches_match ON tournament_matches (match_id);
