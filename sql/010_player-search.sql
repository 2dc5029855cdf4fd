-- Why: support looks players up by id, alias id or the start of a display name without a sequential scan,
-- and generated names are stored (signup stores them from now on; existing players are backfilled here), so
-- a search finds the names players are shown.

-- Up Migration

-- The name engine/players/display-names.ts generates, in SQL, so the backfill is one statement in this
-- migration's transaction (all or nothing, never half done). It must give exactly what the TypeScript gives
-- (test/api/player-lookup.test.ts holds them equal); it stays for that test and for data loaded by hand.
CREATE FUNCTION generated_display_name(player_id text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT (ARRAY['Swift', 'Brave', 'Clever', 'Mighty', 'Silent', 'Lucky', 'Fierce', 'Nimble', 'Bold', 'Calm', 'Eager',
                'Gentle', 'Jolly', 'Keen', 'Loyal', 'Proud', 'Quick', 'Royal', 'Sly', 'Witty'])[get_byte(digest, 0) % 20 + 1]
    || ' ' || (ARRAY['Otter', 'Falcon', 'Tiger', 'Panda', 'Wolf', 'Fox', 'Hawk', 'Lynx', 'Bear', 'Raven', 'Koala',
                     'Badger', 'Heron', 'Moose', 'Gecko', 'Orca', 'Puma', 'Bison', 'Crane', 'Yak'])[get_byte(digest, 1) % 20 + 1]
    || ' ' || ((get_byte(digest, 2) * 256 + get_byte(digest, 3)) % 1000)::text
  FROM (SELECT sha256(convert_to(player_id, 'UTF8')) AS digest) AS hashed
$$;

-- Before the index below exists, so filling the names does not also maintain it row by row.
UPDATE players SET display_name = generated_display_name(id) WHERE display_name IS NULL;

-- Display-name prefixes, case-insensitive: lower() as the column's collation lowers it, compared in byte
-- order ("C"), so LIKE 'prefix%' is an index range and the matches come out in (name, id) order for paging.
CREATE INDEX players_by_lower_name ON players (game_id, (lower(display_name) COLLATE "C"), id);

-- Exact alias ids of any type (the primary key leads with the alias type).
CREATE INDEX player_aliases_by_alias_id ON player_aliases (game_id, alias_id);

-- Down Migration

DROP INDEX player_aliases_by_alias_id;
DROP INDEX players_by_lower_name;
DROP FUNCTION generated_display_name(text);
