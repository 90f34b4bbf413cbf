-- cardroom arena schema, version 1 (SQLite).
-- (IF NOT EXISTS: databases made before the switch to sqlx's migrator already hold these tables.)
CREATE TABLE IF NOT EXISTS bots (
    id             TEXT PRIMARY KEY,
    name           TEXT NOT NULL,
    url            TEXT NOT NULL,
    games          TEXT NOT NULL,            -- JSON array of game ids
    author         TEXT NOT NULL,
    version        TEXT NOT NULL,
    token_hash     TEXT NOT NULL,            -- hex SHA-256 of the owner token
    signing_secret TEXT NOT NULL,
    builtin        INTEGER NOT NULL DEFAULT 0,
    paused         INTEGER NOT NULL DEFAULT 0,
    failures       INTEGER NOT NULL DEFAULT 0, -- disqualifications or failed probes in a row
    deleted        INTEGER NOT NULL DEFAULT 0,
    created_at     INTEGER NOT NULL          -- unix milliseconds
);

CREATE TABLE IF NOT EXISTS matches (
    id          TEXT PRIMARY KEY,
    game        TEXT NOT NULL,
    options     TEXT NOT NULL,               -- JSON object of option overrides
    seed        INTEGER NOT NULL,            -- u64 stored as its i64 bit pattern
    deals       TEXT NOT NULL,               -- JSON array of stacked deals
    ranked      INTEGER NOT NULL,
    ladder      INTEGER NOT NULL DEFAULT 0,
    deadline_ms INTEGER NOT NULL,
    max_faults  INTEGER NOT NULL,
    status      TEXT NOT NULL,               -- queued | running | finished | aborted
    result      TEXT,                        -- JSON, once finished
    error       TEXT,                        -- why it was aborted
    created_at  INTEGER NOT NULL,
    started_at  INTEGER,
    finished_at INTEGER
);
CREATE INDEX IF NOT EXISTS matches_game ON matches (game, created_at);
CREATE INDEX IF NOT EXISTS matches_status ON matches (status);

CREATE TABLE IF NOT EXISTS match_seats (
    match_id TEXT NOT NULL REFERENCES matches (id),
    seat     INTEGER NOT NULL,
    bot_id   TEXT NOT NULL REFERENCES bots (id),
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX IF NOT EXISTS match_seats_bot ON match_seats (bot_id);

CREATE TABLE IF NOT EXISTS moves (
    match_id   TEXT NOT NULL REFERENCES matches (id),
    idx        INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    action     TEXT NOT NULL,                -- JSON
    latency_ms INTEGER NOT NULL,
    fault      TEXT,                         -- JSON {kind, detail} or NULL
    comment    TEXT,
    events     TEXT NOT NULL,                -- JSON array of public events
    PRIMARY KEY (match_id, idx)
);

CREATE TABLE IF NOT EXISTS ratings (
    bot_id     TEXT NOT NULL REFERENCES bots (id),
    game       TEXT NOT NULL,
    mu         REAL NOT NULL,
    sigma      REAL NOT NULL,
    played     INTEGER NOT NULL,
    last_match TEXT,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (bot_id, game)
);

CREATE TABLE IF NOT EXISTS rating_history (
    match_id     TEXT NOT NULL REFERENCES matches (id),
    bot_id       TEXT NOT NULL REFERENCES bots (id),
    game         TEXT NOT NULL,
    mu_before    REAL NOT NULL,
    sigma_before REAL NOT NULL,
    mu_after     REAL NOT NULL,
    sigma_after  REAL NOT NULL,
    at           INTEGER NOT NULL,
    PRIMARY KEY (match_id, bot_id)
);
