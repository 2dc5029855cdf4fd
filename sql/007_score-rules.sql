-- Why: a leaderboard may keep each player's latest score or a running sum instead of the best one, which can move
-- either way, so those writes are ordered by a per-entry version; each score may carry metadata, kept with it
-- (and frozen in archives). Metadata is `json`, not `jsonb`: kept as the compact text reported, so a rebuild puts
-- back exactly what Redis held.

-- Up Migration

ALTER TABLE leaderboards
  ADD COLUMN update_strategy text NOT NULL DEFAULT 'best' CHECK (update_strategy IN ('best', 'latest', 'sum'));

-- `version` orders latest/sum writes (0 on best boards, whose writes only ever improve a score).
ALTER TABLE scores
  ADD COLUMN version bigint NOT NULL DEFAULT 0,
  ADD COLUMN metadata json;

ALTER TABLE season_entries ADD COLUMN metadata json;

-- Down Migration

ALTER TABLE season_entries DROP COLUMN metadata;
ALTER TABLE scores DROP COLUMN metadata, DROP COLUMN version;
ALTER TABLE leaderboards DROP COLUMN update_strategy;
