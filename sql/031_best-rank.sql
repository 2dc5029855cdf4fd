-- Up Migration

-- The best rank a player's reports reached on the board this season, and when (docs/history.md
-- part 4): written by the persistence job from Redis's best-ranks hash, only ever improving.
ALTER TABLE scores ADD COLUMN best_rank integer, ADD COLUMN best_rank_at timestamptz;

-- Down Migration

ALTER TABLE scores DROP COLUMN best_rank, DROP COLUMN best_rank_at;
