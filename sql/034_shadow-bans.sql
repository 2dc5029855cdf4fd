-- Up Migration

-- Shadow bans (docs/review.md part 6): a banned player is either banned outright ('ban': told, their
-- reports refused) or shadow-banned ('shadow': never told, their reports held for nobody but
-- themselves). Set exactly while banned_at is.
ALTER TABLE players ADD COLUMN ban_kind text CHECK (ban_kind IN ('ban', 'shadow'));
UPDATE players SET ban_kind = 'ban' WHERE banned_at IS NOT NULL;
ALTER TABLE players ADD CONSTRAINT players_ban_kind_set CHECK ((ban_kind IS NULL) = (banned_at IS NULL));

-- A shadow-banned player's reports are kept like held scores, reason 'shadow', never in the queue.
ALTER TABLE reviews DROP CONSTRAINT reviews_reason_check;
ALTER TABLE reviews ADD CONSTRAINT reviews_reason_check CHECK (reason IN ('above', 'gain', 'outlier', 'shadow'));

-- Down Migration

DELETE FROM reviews WHERE reason = 'shadow';
ALTER TABLE reviews DROP CONSTRAINT reviews_reason_check;
ALTER TABLE reviews ADD CONSTRAINT reviews_reason_check CHECK (reason IN ('above', 'gain', 'outlier'));
ALTER TABLE players DROP CONSTRAINT players_ban_kind_set;
ALTER TABLE players DROP COLUMN ban_kind;
