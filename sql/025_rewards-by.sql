-- Why: a league's rewards may follow the rank within the player's group instead of the rank on the
-- whole board (docs/competitions.md, part 4): "rewards_by": "rank" (default) or "group_rank".

-- Up Migration

ALTER TABLE leaderboards ADD COLUMN rewards_by text NOT NULL DEFAULT 'rank' CHECK (rewards_by IN ('rank', 'group_rank'));

-- Down Migration

ALTER TABLE leaderboards DROP COLUMN rewards_by;
