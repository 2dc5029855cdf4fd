-- Up Migration

-- player.overtaken names the players a report passes among the board's first notify_top ranks
-- (docs/events.md part 5); 0, the default, names none.
ALTER TABLE leaderboards ADD COLUMN notify_top integer NOT NULL DEFAULT 0 CHECK (notify_top BETWEEN 0 AND 1000);

-- Down Migration

ALTER TABLE leaderboards DROP COLUMN notify_top;
