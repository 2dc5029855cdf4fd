-- Why: moderation reaches archived seasons without renumbering their stored rows: a ban hides a player's rows (an unban shows them again), a removal withdraws one row, an erasure strips a row down to its position, score and rank; reads skip withdrawn rows and close ranks and totals up by counting them on an index.

-- Up Migration

-- An erased row keeps only what holds the others' ranks in place (position, score, rank); UNIQUE allows many NULL player ids.
ALTER TABLE season_entries
  ALTER COLUMN player_id DROP NOT NULL,
  ADD COLUMN withdrawn text CHECK (withdrawn IN ('banned', 'removed', 'erased')),
  ADD CONSTRAINT season_entries_erased_anonymous CHECK (withdrawn IS DISTINCT FROM 'erased' OR (player_id IS NULL AND clan_id IS NULL AND metadata IS NULL)),
  ADD CONSTRAINT season_entries_player_unless_erased CHECK (withdrawn = 'erased' OR player_id IS NOT NULL);

-- The withdrawn rows of a season by position: the counts that turn stored ranks, positions and totals into what a read shows.
-- (A stored rank R is the position of the first row holding that score, so "withdrawn rows ranked above R" is a position count.)
CREATE INDEX season_entries_withdrawn ON season_entries (leaderboard_internal_id, season, position) WHERE withdrawn IS NOT NULL;

-- A player's archived rows on every board, for a ban, an unban or an erasure.
CREATE INDEX season_entries_by_player ON season_entries (player_id) WHERE player_id IS NOT NULL;

-- Down Migration

DROP INDEX season_entries_by_player;
DROP INDEX season_entries_withdrawn;
DELETE FROM season_entries WHERE withdrawn IS NOT NULL;
ALTER TABLE season_entries
  DROP CONSTRAINT season_entries_player_unless_erased,
  DROP CONSTRAINT season_entries_erased_anonymous,
  DROP COLUMN withdrawn,
  ALTER COLUMN player_id SET NOT NULL;
