-- Up Migration

-- Held scores (docs/review.md): a client report a board's review rules caught, counted for nobody
-- but its player until a decision. One row per hold: later reports of the player on the board in
-- the same season join it (the report script keeps the joined state in Redis's `held` hash; each
-- answer carries its version, so a late write never replaces a newer one). `held_us` (Redis's
-- clock when the hold began) tells one hold from the next after a decision. Erasure deletes a
-- player's rows with the player.
CREATE TABLE reviews (
  review_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  leaderboard_internal_id bigint NOT NULL REFERENCES leaderboards (internal_id) ON DELETE CASCADE,
  season integer NOT NULL,
  player_id text NOT NULL REFERENCES players (id) ON DELETE CASCADE,
  held_us bigint NOT NULL,
  version integer NOT NULL,
  reason text NOT NULL CHECK (reason IN ('above', 'gain', 'outlier')),
  -- The score the player sees (the joined reports by the board's rule), its tiebreakers, and on
  -- sum boards the amount an approval adds.
  score float8 NOT NULL,
  tiebreakers float8[] NOT NULL DEFAULT '{}',
  amount float8,
  achieved_at_ms bigint, -- earliest boards: when the held entry was reached
  previous_score float8,
  metadata jsonb,
  held_at timestamptz NOT NULL,
  decision text CHECK (decision IN ('approved', 'rejected')),
  decided_at timestamptz,
  decided_by text,
  UNIQUE (leaderboard_internal_id, season, player_id, held_us)
);
-- The queue: undecided rows, oldest first, per board.
CREATE INDEX reviews_pending ON reviews (leaderboard_internal_id, held_at) WHERE decision IS NULL;
CREATE INDEX reviews_player ON reviews (player_id);

-- Down Migration

DROP TABLE reviews;
