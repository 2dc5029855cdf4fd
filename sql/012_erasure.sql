-- Why: erasing a player (a data-protection request) deletes their scores on every leaderboard of the game, found
-- by player id rather than by walking each leaderboard's rows.

-- Up Migration

CREATE INDEX scores_by_player ON scores (player_id);

-- Down Migration

DROP INDEX scores_by_player;
