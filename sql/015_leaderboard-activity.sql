-- Why: after Redis loses its data, the rebuild walks the leaderboards most recently active first, so the boards players are using come back before idle ones.

-- Up Migration

-- When the board's scores last reached PostgreSQL (the worker moves it at most once a minute), at
-- millisecond precision so the walk's position is exact in JavaScript.
ALTER TABLE leaderboards ADD COLUMN active_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now());
UPDATE leaderboards SET active_at = date_trunc('milliseconds', updated_at);
CREATE INDEX leaderboards_by_activity ON leaderboards (active_at DESC, internal_id DESC);

-- Down Migration

DROP INDEX leaderboards_by_activity;
ALTER TABLE leaderboards DROP COLUMN active_at;
