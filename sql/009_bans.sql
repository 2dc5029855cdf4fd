-- Why: a banned player is hidden from every read and their reports are refused, but nothing of theirs is
-- deleted, so an unban brings every score back; the ban itself is durable here, so a rebuild of Redis keeps it.

-- Up Migration

ALTER TABLE players
  ADD COLUMN banned_at timestamptz,
  ADD COLUMN ban_reason text;

-- The banned players of a game (a rebuild and a new leaderboard hide them).
CREATE INDEX players_banned ON players (game_id) WHERE banned_at IS NOT NULL;

-- Down Migration

DROP INDEX players_banned;
ALTER TABLE players DROP COLUMN ban_reason, DROP COLUMN banned_at;
