-- Why: a season's ranks may earn rewards (bands of ranks, each with the game's own reward object), and a
-- player claims theirs once the season has closed or been archived, exactly once (docs/competitions.md,
-- part 4). The primary key is what makes a claim happen once under any concurrency; erasure deletes the
-- player's claims with the player.

-- Up Migration

ALTER TABLE leaderboards
  -- [{"rank_from", "rank_to", "reward"}], non-overlapping; at most 50.
  ADD COLUMN rewards jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(rewards) = 'array' AND jsonb_array_length(rewards) <= 50);

CREATE TABLE reward_claims (
  leaderboard_internal_id bigint NOT NULL REFERENCES leaderboards (internal_id) ON DELETE CASCADE,
  season integer NOT NULL,
  player_id text NOT NULL REFERENCES players (id) ON DELETE CASCADE,
  -- The rank and the reward when claimed: a claim freezes them.
  rank integer NOT NULL,
  reward jsonb NOT NULL,
  claimed_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  PRIMARY KEY (leaderboard_internal_id, season, player_id)
);
CREATE INDEX reward_claims_player ON reward_claims (player_id);

-- Down Migration

DROP TABLE reward_claims;
ALTER TABLE leaderboards DROP COLUMN rewards;
