-- Why: a leaderboard may accept reports only within a window of its current season (a weekend
-- tournament: docs/competitions.md). The window is stamped with the season it was set in, so a reset
-- clears it without writing anything, and a rebuild knows which season it belongs to.

-- Up Migration

ALTER TABLE leaderboards
  ADD COLUMN opens_at timestamptz,
  ADD COLUMN closes_at timestamptz,
  -- The season the window was set in; it applies only while that season is current.
  ADD COLUMN window_season integer,
  ADD CONSTRAINT leaderboards_window_order CHECK (opens_at IS NULL OR closes_at IS NULL OR opens_at < closes_at),
  ADD CONSTRAINT leaderboards_window_season CHECK ((opens_at IS NULL AND closes_at IS NULL) = (window_season IS NULL));

-- Down Migration

ALTER TABLE leaderboards DROP COLUMN window_season, DROP COLUMN closes_at, DROP COLUMN opens_at;
