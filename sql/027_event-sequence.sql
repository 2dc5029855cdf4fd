-- Why: every event of a leaderboard carries a `sequence`, increasing per leaderboard (docs/events.md),
-- so a receiver can order deliveries that arrive in any order. Taken in the transaction that records
-- the event, under the leaderboard's row lock.

-- Up Migration

ALTER TABLE leaderboards ADD COLUMN event_sequence bigint NOT NULL DEFAULT 0;

-- Down Migration

ALTER TABLE leaderboards DROP COLUMN event_sequence;
