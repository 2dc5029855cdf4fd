-- Why: leaderboards start over by season. The current season's number and start are kept with the leaderboard; in Redis the number also stands beside the board's live keys, where every report reads it in the same atomic step.

-- Up Migration

ALTER TABLE leaderboards ADD COLUMN season integer NOT NULL DEFAULT 1 CHECK (season >= 1), ADD COLUMN season_started_at timestamptz;
UPDATE leaderboards SET season_started_at = created_at;
ALTER TABLE leaderboards ALTER COLUMN season_started_at SET NOT NULL, ALTER COLUMN season_started_at SET DEFAULT now();

-- Down Migration

ALTER TABLE leaderboards DROP COLUMN season_started_at, DROP COLUMN season;
