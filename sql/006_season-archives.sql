-- Why: finished seasons are kept, each entry with its final rank computed once when the season is archived, so any page or record of an archived season is an index lookup; scores of the current season are kept per season so an ended season's late writes never mix with the next one; leaderboards may reset on a cron schedule.

-- Up Migration

ALTER TABLE leaderboards
  ADD COLUMN reset_cron text,
  ADD COLUMN reset_timezone text,
  ADD COLUMN keep_seasons integer NOT NULL DEFAULT 52 CHECK (keep_seasons BETWEEN 1 AND 1000),
  ADD CONSTRAINT leaderboards_reset_schedule_whole CHECK ((reset_cron IS NULL) = (reset_timezone IS NULL));

ALTER TABLE scores ADD COLUMN season integer NOT NULL DEFAULT 1;
ALTER TABLE scores DROP CONSTRAINT scores_pkey, ADD PRIMARY KEY (leaderboard_internal_id, season, player_id);
ALTER TABLE clan_scores ADD COLUMN season integer NOT NULL DEFAULT 1;
ALTER TABLE clan_scores DROP CONSTRAINT clan_scores_pkey, ADD PRIMARY KEY (leaderboard_internal_id, season, clan_id);

-- One row per archived season: what the season's reads need besides its entries.
CREATE TABLE leaderboard_seasons (
  leaderboard_internal_id bigint NOT NULL REFERENCES leaderboards (internal_id) ON DELETE CASCADE,
  season integer NOT NULL,
  started_at timestamptz NOT NULL,
  ended_at timestamptz NOT NULL,
  -- Ranked players and ranked clans when the season ended.
  total integer NOT NULL,
  clan_total integer NOT NULL,
  -- The leaderboard's settings as they stood at the reset.
  settings jsonb NOT NULL,
  archived_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (leaderboard_internal_id, season)
);

-- An archived season's players in final order: `position` is the 1-based place in the list (ties in
-- the live list's fixed order), `rank` the competition rank, both computed once by window functions.
CREATE TABLE season_entries (
  leaderboard_internal_id bigint NOT NULL,
  season integer NOT NULL,
  position integer NOT NULL,
  player_id text NOT NULL,
  score double precision NOT NULL,
  rank integer NOT NULL,
  clan_id text,
  PRIMARY KEY (leaderboard_internal_id, season, position),
  UNIQUE (leaderboard_internal_id, season, player_id),
  FOREIGN KEY (leaderboard_internal_id, season) REFERENCES leaderboard_seasons (leaderboard_internal_id, season) ON DELETE CASCADE
);

-- A clan's archived members, in the season's order.
CREATE INDEX season_entries_by_clan ON season_entries (leaderboard_internal_id, season, clan_id, position) WHERE clan_id IS NOT NULL;

CREATE TABLE season_clan_entries (
  leaderboard_internal_id bigint NOT NULL,
  season integer NOT NULL,
  position integer NOT NULL,
  clan_id text NOT NULL,
  score double precision NOT NULL,
  rank integer NOT NULL,
  -- Members who scored that season.
  member_count integer NOT NULL,
  PRIMARY KEY (leaderboard_internal_id, season, position),
  UNIQUE (leaderboard_internal_id, season, clan_id),
  FOREIGN KEY (leaderboard_internal_id, season) REFERENCES leaderboard_seasons (leaderboard_internal_id, season) ON DELETE CASCADE
);

-- Down Migration

DROP TABLE season_clan_entries, season_entries, leaderboard_seasons;
DELETE FROM clan_scores WHERE season <> 1;
ALTER TABLE clan_scores DROP CONSTRAINT clan_scores_pkey, ADD PRIMARY KEY (leaderboard_internal_id, clan_id), DROP COLUMN season;
DELETE FROM scores WHERE season <> 1;
ALTER TABLE scores DROP CONSTRAINT scores_pkey, ADD PRIMARY KEY (leaderboard_internal_id, player_id), DROP COLUMN season;
ALTER TABLE leaderboards DROP CONSTRAINT leaderboards_reset_schedule_whole, DROP COLUMN keep_seasons, DROP COLUMN reset_timezone, DROP COLUMN reset_cron;
