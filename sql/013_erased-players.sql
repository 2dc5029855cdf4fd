-- Why: an erased player's tokens stay valid signatures forever; their id (random, opaque, nothing personal) is kept
-- so that every leaderboard, one created later included, refuses their reports in its own report script,
-- without a lookup per report.

-- Up Migration

CREATE TABLE erased_players (
  game_id text NOT NULL,
  player_id text NOT NULL,
  erased_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (game_id, player_id)
);

-- Down Migration

DROP TABLE erased_players;
