-- cardroom arena schema, version 9 (SQLite): how a bot wants the history in its move requests.
--
-- `full` (every move so far, in every request) or `delta` (`history_from` and the moves since the
-- seat's previous request in the match; the whole history on a run's first request).
ALTER TABLE bots ADD COLUMN history_mode TEXT NOT NULL DEFAULT 'full';
