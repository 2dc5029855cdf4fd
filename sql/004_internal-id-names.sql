-- Why: one name per id kind: `leaderboard_id` is only ever a leaderboard's public text id; its bigint is `internal_id` in its own table and `leaderboard_internal_id` where other tables refer to it (renames are catalog-only in PostgreSQL: no rewrite, no lock held for long).

-- Up Migration

ALTER TABLE leaderboards RENAME COLUMN id TO internal_id;
ALTER SEQUENCE leaderboards_id_seq RENAME TO leaderboards_internal_id_seq;
ALTER TABLE scores RENAME COLUMN leaderboard_id TO leaderboard_internal_id;
ALTER TABLE clan_scores RENAME COLUMN leaderboard_id TO leaderboard_internal_id;

-- Down Migration

ALTER TABLE clan_scores RENAME COLUMN leaderboard_internal_id TO leaderboard_id;
ALTER TABLE scores RENAME COLUMN leaderboard_internal_id TO leaderboard_id;
ALTER SEQUENCE leaderboards_internal_id_seq RENAME TO leaderboards_id_seq;
ALTER TABLE leaderboards RENAME COLUMN internal_id TO id;
