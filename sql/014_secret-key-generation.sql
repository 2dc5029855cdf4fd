-- Why: a dashboard session remembers which secret key it signed in with by its generation (never the key):
-- rotating the key raises the generation, which ends every session signed in with an older one.

-- Up Migration

ALTER TABLE games ADD COLUMN secret_key_generation integer NOT NULL DEFAULT 1;

-- Down Migration

ALTER TABLE games DROP COLUMN secret_key_generation;
