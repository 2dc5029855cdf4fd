-- Why: Redis must be tied to this database; a random id created with the database is written to Redis too, and a Redis holding another id is never served from.

-- Up Migration

CREATE TABLE dataset_identity (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- One row only.
  singleton boolean NOT NULL DEFAULT true UNIQUE CHECK (singleton)
);
INSERT INTO dataset_identity DEFAULT VALUES;

-- Down Migration

DROP TABLE dataset_identity;
