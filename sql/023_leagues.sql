-- Why: a board can run as a league (docs/competitions.md, part 6): each season its players play in
-- groups of their tier. The settings live with the board; each player's group and tier of the
-- season are persisted with their seat, so a lost Redis dataset gets the groups back.

-- Up Migration

-- {"size", "tiers", "promote", "relegate"}, or null for a board without groups.
ALTER TABLE leaderboards ADD COLUMN groups jsonb CHECK (groups IS NULL OR jsonb_typeof(groups) = 'object');

ALTER TABLE season_seats
  ADD COLUMN group_no integer CHECK (group_no >= 1),
  ADD COLUMN tier smallint CHECK (tier >= 0);

-- Down Migration

ALTER TABLE season_seats DROP COLUMN tier, DROP COLUMN group_no;
ALTER TABLE leaderboards DROP COLUMN groups;
