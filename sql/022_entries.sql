-- Why: a board can be run as a tournament that players enter, with a limit of players and of
-- reports per player (docs/competitions.md, part 3). Redis counts seats and attempts in the report's
-- own step; these rows are their persisted copy, so a lost Redis dataset gets them back. One row per
-- player who entered or reported this season on such a board; an ended season's rows go with its archive.

-- Up Migration

ALTER TABLE leaderboards
  ADD COLUMN join_required boolean NOT NULL DEFAULT false,
  ADD COLUMN max_players integer CHECK (max_players BETWEEN 1 AND 1000000),
  ADD COLUMN max_attempts integer CHECK (max_attempts BETWEEN 1 AND 10000);

CREATE TABLE season_seats (
  leaderboard_internal_id bigint NOT NULL REFERENCES leaderboards (internal_id) ON DELETE CASCADE,
  season integer NOT NULL,
  player_id text NOT NULL,
  -- Reports counted this season (a removed score keeps them: a removed cheater gains no attempts).
  attempts integer NOT NULL CHECK (attempts >= 0),
  -- Entered (POST .../entry, or a first report) and not withdrawn.
  entered boolean NOT NULL,
  -- The board's version clock at the change: a replayed or late write never undoes a newer one.
  version bigint NOT NULL,
  PRIMARY KEY (leaderboard_internal_id, season, player_id)
);
-- Erasure deletes a player's rows.
CREATE INDEX season_seats_player ON season_seats (player_id);

-- Down Migration

DROP TABLE season_seats;
ALTER TABLE leaderboards DROP COLUMN max_attempts, DROP COLUMN max_players, DROP COLUMN join_required;
