-- Up Migration

-- Daily rank snapshots (docs/history.md): the first RANK_SNAPSHOT_TOP entries of every board whose
-- scores reached PostgreSQL since its last snapshot (leaderboards.active_at), as they stood in
-- Redis. A board's days are listed in rank_snapshot_days, so its latest snapshot is found without
-- reading its rows, and each day's rows are written in the transaction that adds the day (a day is
-- taken once). Days past RANK_HISTORY_DAYS go by day, their rows with them.
CREATE TABLE rank_snapshot_days (
  leaderboard_internal_id bigint NOT NULL REFERENCES leaderboards (internal_id) ON DELETE CASCADE,
  day date NOT NULL,
  season integer NOT NULL,
  entries integer NOT NULL,
  taken_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (leaderboard_internal_id, day)
);
CREATE INDEX rank_snapshot_days_by_day ON rank_snapshot_days (day);

-- A page looks up its players at the board's latest day (the primary key); a player's history
-- and erasure go by player.
CREATE TABLE rank_snapshots (
  leaderboard_internal_id bigint NOT NULL,
  day date NOT NULL,
  player_id text NOT NULL REFERENCES players (id) ON DELETE CASCADE,
  season integer NOT NULL,
  rank integer NOT NULL,
  score float8 NOT NULL,
  PRIMARY KEY (leaderboard_internal_id, day, player_id),
  FOREIGN KEY (leaderboard_internal_id, day) REFERENCES rank_snapshot_days (leaderboard_internal_id, day) ON DELETE CASCADE
);
CREATE INDEX rank_snapshots_player ON rank_snapshots (player_id, leaderboard_internal_id, day);

-- Down Migration

DROP TABLE rank_snapshots;
DROP TABLE rank_snapshot_days;
