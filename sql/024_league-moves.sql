-- Why: a league's season ends with moves (docs/competitions.md, part 6): the best of each group up a
-- tier, the worst down one. Redis applies them; these rows keep, with the season's archive, each
-- group member's standing and move (archived groups read from them), and each player's tier, so a
-- lost Redis dataset gets the tiers back. Written in the archive's one transaction: exactly once.

-- Up Migration

CREATE TABLE season_group_members (
  leaderboard_internal_id bigint NOT NULL,
  season integer NOT NULL,
  player_id text NOT NULL,
  group_no integer NOT NULL CHECK (group_no >= 1),
  tier smallint NOT NULL CHECK (tier >= 0),
  -- Within the group by the board's tie rule; null for a member without a score (ranked last).
  group_rank integer CHECK (group_rank >= 1),
  -- The tier the season's end gave the player (equal to tier: stayed).
  moved_to smallint NOT NULL CHECK (moved_to >= 0),
  PRIMARY KEY (leaderboard_internal_id, season, player_id),
  FOREIGN KEY (leaderboard_internal_id, season) REFERENCES leaderboard_seasons (leaderboard_internal_id, season) ON DELETE CASCADE
);
CREATE INDEX season_group_members_group ON season_group_members (leaderboard_internal_id, season, group_no);
-- Erasure deletes a player's rows.
CREATE INDEX season_group_members_player ON season_group_members (player_id);

-- A league player's tier above the lowest (no row: the lowest), as the last applied moves left it.
CREATE TABLE league_tiers (
  leaderboard_internal_id bigint NOT NULL REFERENCES leaderboards (internal_id) ON DELETE CASCADE,
  player_id text NOT NULL,
  tier smallint NOT NULL CHECK (tier >= 0),
  -- The season whose moves set it: an archive replayed out of order never undoes a later move.
  moved_season integer NOT NULL,
  PRIMARY KEY (leaderboard_internal_id, player_id)
);
CREATE INDEX league_tiers_player ON league_tiers (player_id);

-- Down Migration

DROP TABLE league_tiers;
DROP TABLE season_group_members;
