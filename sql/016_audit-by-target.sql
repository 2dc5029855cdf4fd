-- Why: erasing a player strips the details of their earlier audit entries, found by the player id rather than by
-- reading the game's whole log.

-- Up Migration

CREATE INDEX audit_log_by_target ON audit_log (game_id, target);

-- Down Migration

DROP INDEX audit_log_by_target;
