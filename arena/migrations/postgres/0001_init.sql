-- cardroom arena schema, version 1 (PostgreSQL). Same tables as the SQLite schema; JSON is kept
-- as text so both backends read and write it the same way.
-- (IF NOT EXISTS: databases made before the switch to sqlx's migrator already hold these tables.)
CREATE TABLE IF NOT EXISTS bots (
    id             TEXT PRIMARY KEY,
    name           TEXT NOT NULL,
    url            TEXT NOT NULL,
    games          TEXT NOT NULL,
    author         TEXT NOT NULL,
    version        TEXT NOT NULL,
    token_hash     TEXT NOT NULL,
    signing_secret TEXT NOT NULL,
    builtin        BOOLEAN NOT NULL DEFAULT FALSE,
    paused         BOOLEAN NOT NULL DEFAULT FALSE,
    failures       BIGINT NOT NULL DEFAULT 0,
    deleted        BOOLEAN NOT NULL DEFAULT FALSE,
    created_at     BIGINT NOT NULL
);

CREATE TABLE IF NOT EXISTS matches (
    id          TEXT PRIMARY KEY,
    game        TEXT NOT NULL,
    options     TEXT NOT NULL,
    seed        BIGINT NOT NULL,
    deals       TEXT NOT NULL,
    ranked      BOOLEAN NOT NULL,
    ladder      BOOLEAN NOT NULL DEFAULT FALSE,
    deadline_ms BIGINT NOT NULL,
    max_faults  BIGINT NOT NULL,
    status      TEXT NOT NULL,
    result      TEXT,
    error       TEXT,
    created_at  BIGINT NOT NULL,
    started_at  BIGINT,
    finished_at BIGINT
);
CREATE INDEX IF NOT EXISTS matches_game ON matches (game, created_at);
CREATE INDEX IF NOT EXISTS matches_status ON matches (status);

CREATE TABLE IF NOT EXISTS match_seats (
    match_id TEXT NOT NULL REFERENCES matches (id),
    seat     BIGINT NOT NULL,
    bot_id   TEXT NOT NULL REFERENCES bots (id),
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX IF NOT EXISTS match_seats_bot ON match_seats (bot_id);

CREATE TABLE IF NOT EXISTS moves (
    match_id   TEXT NOT NULL REFERENCES matches (id),
    idx        BIGINT NOT NULL,
    seat       BIGINT NOT NULL,
    action     TEXT NOT NULL,
    latency_ms BIGINT NOT NULL,
    fault      TEXT,
    comment    TEXT,
    events     TEXT NOT NULL,
    PRIMARY KEY (match_id, idx)
);

CREATE TABLE IF NOT EXISTS ratings (
    bot_id     TEXT NOT NULL REFERENCES bots (id),
    game       TEXT NOT NULL,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL,
    played     BIGINT NOT NULL,
    last_match TEXT,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (bot_id, game)
);

CREATE TABLE IF NOT EXISTS rating_history (
    match_id     TEXT NOT NULL REFERENCES matches (id),
    bot_id       TEXT NOT NULL REFERENCES bots (id),
    game         TEXT NOT NULL,
    mu_before    DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu_after     DOUBLE PRECISION NOT NULL,
    sigma_after  DOUBLE PRECISION NOT NULL,
    at           BIGINT NOT NULL,
    PRIMARY KEY (match_id, bot_id)
);
