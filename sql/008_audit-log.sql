-- Why: operators must know who changed what: every change made with a Secret-Key, the admin token or the
-- dashboard (and the worker's scheduled resets) is recorded, in the transaction of the change where there is one.
-- No foreign key to games: the log is read per game and pruned by age, never joined.

-- Up Migration

CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  game_id text NOT NULL,
  at timestamptz NOT NULL DEFAULT now(),
  actor text NOT NULL CHECK (actor IN ('secret_key', 'admin', 'dashboard', 'system')),
  -- '<resource>.<verb>', e.g. 'leaderboard.reset', 'player.ban'.
  action text NOT NULL,
  -- The id of what changed, as the API names it (leaderboard id, player id, clan id, key id, game id).
  target text NOT NULL,
  -- What changed, never a secret (a created key shows its key_id and name only).
  details jsonb NOT NULL DEFAULT '{}'
);

-- A game's log, newest first, paged by id.
CREATE INDEX audit_log_by_game ON audit_log (game_id, id DESC);
-- Retention prunes by age.
CREATE INDEX audit_log_by_time ON audit_log (at);

-- Down Migration

DROP TABLE audit_log;
