-- cardroom arena schema, version 7 (PostgreSQL): feedback a bot author can act on.
--
-- Secret rotation: the secret a rotation replaced stays valid until `previous_secret_until`
-- (unix ms); meanwhile requests carry a signature with each.
ALTER TABLE bots ADD COLUMN previous_signing_secret TEXT;
ALTER TABLE bots ADD COLUMN previous_secret_until BIGINT;

-- Ratings history: the version the bot reported when the rating was written (NULL before
-- version 7), and a bot's history in one game, newest first, from an index.
ALTER TABLE rating_history ADD COLUMN version TEXT;
CREATE INDEX rating_history_bot_game ON rating_history (bot_id, game, at, match_id);

-- Every fault a bot made, newest first, from an index: a copy of each fault whose bot was
-- asked (not the arena's own fallback moves for a disqualified seat, nor those for a seat
-- flagged on an earlier move, which are played without asking: latency 0), kept when
-- retention deletes the match's moves.
CREATE TABLE bot_faults (
    match_seq BIGINT NOT NULL,               -- matches.seq
    idx       BIGINT NOT NULL,               -- the move
    bot_id    TEXT NOT NULL,
    match_id  TEXT NOT NULL,
    seat      BIGINT NOT NULL,
    fault     TEXT NOT NULL,                 -- JSON, as in match_moves
    at        BIGINT NOT NULL,               -- unix ms, when the move was stored
    PRIMARY KEY (match_seq, idx)
);
CREATE INDEX bot_faults_recent ON bot_faults (bot_id, at, match_seq, idx);

-- Written with the move, in the same transaction, whichever path stores it (the move writer,
-- an import).
CREATE FUNCTION record_bot_fault() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO bot_faults (match_seq, idx, bot_id, match_id, seat, fault, at)
    SELECT NEW.match_seq, NEW.idx, s.bot_id, m.id, NEW.seat, NEW.fault,
           CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)
    FROM matches m JOIN match_seats s ON s.match_id = m.id AND s.seat = NEW.seat
    WHERE m.seq = NEW.match_seq
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END;
$$;
CREATE TRIGGER match_moves_fault AFTER INSERT ON match_moves FOR EACH ROW
WHEN (NEW.fault IS NOT NULL
    AND (NEW.fault::json ->> 'kind') <> 'disqualified'
    AND NOT ((NEW.fault::json ->> 'kind') = 'flagged' AND NEW.latency_ms = 0))
EXECUTE FUNCTION record_bot_fault();

-- The faults already stored; their moves' times were not kept: the match's start stands in.
INSERT INTO bot_faults (match_seq, idx, bot_id, match_id, seat, fault, at)
SELECT mv.match_seq, mv.idx, s.bot_id, m.id, mv.seat, mv.fault,
       COALESCE(m.started_at, m.created_at)
FROM match_moves mv
JOIN matches m ON m.seq = mv.match_seq
JOIN match_seats s ON s.match_id = m.id AND s.seat = mv.seat
WHERE mv.fault IS NOT NULL
    AND (mv.fault::json ->> 'kind') <> 'disqualified'
    AND NOT ((mv.fault::json ->> 'kind') = 'flagged' AND mv.latency_ms = 0)
ON CONFLICT DO NOTHING;

-- Tournaments, newest first, page by page (keyset on creation time, then id).
DROP INDEX IF EXISTS tournaments_created;
CREATE INDEX tournaments_recent ON tournaments (created_at, id);
