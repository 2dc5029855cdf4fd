-- Why: a scheduled leaderboard may accept reports only for a while after each reset (a daily
-- challenge open for an hour: docs/competitions.md); the window then follows every season's start.

-- Up Migration

ALTER TABLE leaderboards
  ADD COLUMN open_seconds integer CHECK (open_seconds BETWEEN 60 AND 31622400),
  ADD CONSTRAINT leaderboards_open_seconds_scheduled CHECK (open_seconds IS NULL OR reset_cron IS NOT NULL),
  ADD CONSTRAINT leaderboards_one_window CHECK (open_seconds IS NULL OR window_season IS NULL);

-- Down Migration

ALTER TABLE leaderboards DROP COLUMN open_seconds;
