-- cardroom arena schema, version 6 (SQLite): a fair arena.
-- Why a match was aborted, as a code (`cancelled`, `bot_unavailable`, `failed`); `error` keeps the
-- words. NULL for matches aborted before version 6.
ALTER TABLE matches ADD COLUMN abort_reason TEXT;
-- What each seat's bot reported at `GET /` when the match started: the software it ran.
ALTER TABLE match_seats ADD COLUMN reported_name TEXT;
ALTER TABLE match_seats ADD COLUMN reported_version TEXT;
-- Why a bot is paused (`unreachable`, `disqualified`, `trial_faulted`), and the unranked trial
-- match against a built-in bot that may return it to the ladder.
ALTER TABLE bots ADD COLUMN pause_reason TEXT;
ALTER TABLE bots ADD COLUMN trial_match TEXT;
-- Ranked matches per game id and table size: the ladder plays the size it played least, and the
-- leaderboard shows the counts. Counted from the matches that moved ratings so far.
CREATE TABLE IF NOT EXISTS table_sizes (
    game    TEXT NOT NULL,
    players INTEGER NOT NULL,
    matches INTEGER NOT NULL,
    PRIMARY KEY (game, players)
);
INSERT INTO table_sizes (game, players, matches)
SELECT game, players, COUNT(*) FROM (
    SELECT m.game AS game, (SELECT COUNT(*) FROM match_seats s WHERE s.match_id = m.id) AS players
    FROM matches m WHERE m.rating_seq IS NOT NULL
) sized GROUP BY game, players;
