-- Why: a leaderboard may break ties by who got there first ('earliest') and by up to four tiebreaker
-- columns of its own (docs/ordering.md); every kept entry then carries its tiebreakers and the time it
-- was reached, in PostgreSQL as in Redis, so a rebuild and an archive keep the exact order.

-- Up Migration

ALTER TABLE leaderboards
  ADD COLUMN tie_break text NOT NULL DEFAULT 'shared' CHECK (tie_break IN ('shared', 'earliest')),
  -- [{"name", "sort_order"}], in order; at most four.
  ADD COLUMN tiebreakers jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(tiebreakers) = 'array' AND jsonb_array_length(tiebreakers) <= 4);

ALTER TABLE scores ADD COLUMN tiebreakers double precision[], ADD COLUMN achieved_at timestamptz;
ALTER TABLE season_entries ADD COLUMN tiebreakers double precision[], ADD COLUMN achieved_at timestamptz;

-- Down Migration

ALTER TABLE season_entries DROP COLUMN achieved_at, DROP COLUMN tiebreakers;
ALTER TABLE scores DROP COLUMN achieved_at, DROP COLUMN tiebreakers;
ALTER TABLE leaderboards DROP COLUMN tiebreakers, DROP COLUMN tie_break;
