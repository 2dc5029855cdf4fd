-- Why: the worker records `leaderboard.closed` once per season when a board's window closes
-- (docs/events.md part 5); this is the season whose close it has recorded, so a second worker, or
-- the next round, records it no second time.

-- Up Migration

ALTER TABLE leaderboards ADD COLUMN closed_event_season integer;

-- Down Migration

ALTER TABLE leaderboards DROP COLUMN closed_event_season;
