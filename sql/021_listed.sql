-- Why: players find a game's competitions in the client (docs/competitions.md, part 5): a board the
-- game lists shows there, with its state. The partial index serves that list alone.

-- Up Migration

ALTER TABLE leaderboards ADD COLUMN listed boolean NOT NULL DEFAULT false;
CREATE INDEX leaderboards_listed ON leaderboards (game_id, internal_id) WHERE listed;

-- Down Migration

DROP INDEX leaderboards_listed;
ALTER TABLE leaderboards DROP COLUMN listed;
