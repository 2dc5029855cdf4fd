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

/** A recorded change as the log answers it. */
export interface AuditEntry {
  id: number;
  at: Date;
  actor: Actor;
  action: string;
  target: string;
  details: Record<string, unknown>;
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

  /**
   * Records the reset that ended `archivedSeason` unless it is recorded already: the request or
   * the scheduler records a reset when PostgreSQL learns of it at once, the archive when it learnt
   * of it only then. Entries older than the board belong to an earlier leaderboard of the same id.
   * Run with the board's row locked (the archive holds it), so the two cannot both record.
   */
  async recordResetOnce(board: { gameId: string; id: string; createdAt: Date }, archivedSeason: number): Promise<void> {
    await this.db.query(
      `INSERT INTO audit_log (game_id, actor, action, target, details)
       SELECT $1, 'system', 'leaderboard.reset', $2, jsonb_build_object('archived_season', $3::int, 'season', $3::int + 1)
       WHERE NOT EXISTS (
         SELECT 1 FROM audit_log WHERE game_id = $1 AND action = 'leaderboard.reset' AND target = $2
           AND details->>'archived_season' = $3::text AND at >= $4)`,
      [board.gameId, board.id, archivedSeason, board.createdAt],
    );
  }

  /**
   * An erased player's earlier entries keep what was done, when, by whom and to which player id,
   * but lose their details: a `player.*` entry's details are about the person (names, aliases, clan,
   * a ban's reason, which may name them). `score.remove` entries keep theirs (a board and a season).
   */
  async forgetPlayer(gameId: string, playerId: string): Promise<void> {
    await this.db.query(
      `UPDATE audit_log SET details = '{}'
       WHERE game_id = $1 AND target = $2 AND action LIKE 'player.%' AND details <> '{}'`,
      [gameId, playerId],
    );
  }

  /** A game's entries older than entry `before` (all, without it), newest first, at most `limit`. */
  async page(gameId: string, before: number | undefined, limit: number): Promise<AuditEntry[]> {
    // The columns are the entry's fields, named alike.
    const { rows } = await this.db.query<AuditEntry>(
      `SELECT id, at, actor, action, target, details FROM audit_log
       WHERE game_id = $1 AND ($2::bigint IS NULL OR id < $2) ORDER BY id DESC LIMIT $3`,
      [gameId, before ?? null, limit],
    );
    return rows;
  }

  /**
   * Deletes entries recorded before `cutoff`, oldest first, `batchSize` rows per statement so no
   * one statement holds many locks or a long transaction; the number deleted.
   */
  async pruneBefore(cutoff: Date, batchSize = 5000): Promise<number> {
    let deleted = 0;
    for (;;) {
      const { rowCount } = await this.db.query(
        'DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log WHERE at < $1 ORDER BY at LIMIT $2)',
        [cutoff, batchSize],
      );
      deleted += rowCount ?? 0;
      if ((rowCount ?? 0) < batchSize) return deleted;
    }
  }
}
