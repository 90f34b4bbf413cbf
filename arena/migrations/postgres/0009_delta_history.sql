-- cardroom arena schema, version 9 (PostgreSQL): how a bot wants the history in its move
-- requests, and the arena's seal key.
--
-- `full` (every move so far, in every request) or `delta` (`history_from` and the moves since the
-- seat's previous request in the match; the whole history on a run's first request).
ALTER TABLE bots ADD COLUMN IF NOT EXISTS history_mode TEXT NOT NULL DEFAULT 'full';

-- The key that seals the `info` of move requests when the processes are given none
-- (`--seal-key-file`): the first process makes it, every API process and worker reads the same
-- (64 hex digits). SQLite keeps its key in a file beside the database instead.
CREATE TABLE IF NOT EXISTS seal_key (
    id  INTEGER PRIMARY KEY CHECK (id = 1),
    key TEXT NOT NULL
);
