-- cardroom arena schema, version 10 (PostgreSQL): tables people share with bots.
--
-- A table is an ordinary unranked match (created with it, status `waiting` until every person
-- seat is taken) plus who sits where. A person's seat is held by a secret key; only its hash is
-- kept.
CREATE TABLE IF NOT EXISTS tables (
    id         TEXT PRIMARY KEY,
    match_id   TEXT NOT NULL REFERENCES matches (id),
    pace_ms    BIGINT NOT NULL,              -- the least time each move stays on screen
    created_at BIGINT NOT NULL               -- unix milliseconds
);
CREATE UNIQUE INDEX IF NOT EXISTS tables_match ON tables (match_id);

CREATE TABLE IF NOT EXISTS table_seats (
    table_id  TEXT NOT NULL REFERENCES tables (id),
    seat      BIGINT NOT NULL,
    kind      TEXT NOT NULL,                 -- bot | human | open
    name      TEXT,                          -- the bot's or the person's name; NULL: open, not taken
    key_hash  TEXT,                          -- hex SHA-256 of the seat's key (person seats once keyed)
    joined_at BIGINT,                        -- when the person took the seat (unix ms)
    PRIMARY KEY (table_id, seat)
);

-- The bot row every person seat of a match points at (match_seats.bot_id must name a bot), with
-- the transport `person` (moved from outside, never called). It is marked deleted so that no bot
-- list, name lookup, ladder or leaderboard ever offers it.
INSERT INTO bots (id, name, url, games, author, version, token_hash, signing_secret, builtin,
                  deleted, created_at, transport)
VALUES ('person', 'person', 'person:', '[]', '', '', '', '', FALSE, TRUE, 0, 'person')
ON CONFLICT DO NOTHING;
