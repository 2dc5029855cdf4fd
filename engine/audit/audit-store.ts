import type { Queryable } from '../db.js';

/** Who made a change: the game server's Secret-Key, the admin token, a dashboard session, or the service itself. */
export type Actor = 'secret_key' | 'admin' | 'dashboard' | 'system';

/** One recorded change. `details` never holds a secret. */
export interface AuditRecord {
  gameId: string;
  actor: Actor;
  /** '<resource>.<verb>', e.g. 'leaderboard.reset', 'player.ban'. */
  action: string;
  /** The id of what changed, as the API names it. */
  target: string;
  details?: Record<string, unknown>;
}

/**
 * The audit log. A change records itself through the client of its own transaction (`in(client)`),
 * so the entry exists exactly when the change does.
 */
export class AuditStore {
  constructor(private readonly db: Queryable) {}

  /** The same store inside a transaction: every query goes through its client. */
  in(client: Queryable): AuditStore {
    return new AuditStore(client);
  }

  async record(entry: AuditRecord): Promise<void> {
    await this.db.query('INSERT INTO audit_log (game_id, actor, action, target, details) VALUES ($1, $2, $3, $4, $5)', [
      entry.gameId,
      entry.actor,
      entry.action,
      entry.target,
      JSON.stringify(entry.details ?? {}),
    ]);
  }
}
