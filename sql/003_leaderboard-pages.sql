-- Why: a game's leaderboards are listed a page at a time, oldest first; games can hold many thousands.

-- Up Migration

CREATE INDEX leaderboards_by_game ON leaderboards (game_id, id);

-- Down Migration

DROP INDEX leaderboards_by_game;
