-- Up Migration

-- When client reports are held for review (docs/review.md): {"above", "max_gain_per_second",
-- "outlier_factor"}, each a number or null (no such rule); NULL, the default, holds none.
ALTER TABLE leaderboards ADD COLUMN review jsonb;

-- Down Migration

ALTER TABLE leaderboards DROP COLUMN review;
