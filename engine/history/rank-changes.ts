import { LRUCache } from 'lru-cache';
import type { RankSnapshotStore, SnapshotDay } from './rank-snapshot-store.js';

/** How long a process takes a board's latest snapshot day as known: a new day shows within this. */
const LATEST_TTL_MS = 60_000;
/** Snapshot ranks kept in the process (a snapshot never changes, so they need no invalidation). */
const CACHED_RANKS = 200_000;

/**
 * `rank_change` of list entries (docs/history.md): the rank at the board's latest snapshot minus the
 * rank now; null when the player was not in it, or it holds another season. Ranks of a snapshot
 * never change once taken, so each (board, day, player) is cached with no invalidation; a page of
 * players read before costs no query, an unread one one query.
 */
export class RankChanges {
  private readonly latest = new LRUCache<number, SnapshotDay | 'none'>({ max: 100_000, ttl: LATEST_TTL_MS });
  /** '<board>:<day>:<player>' -> the rank then (0: not in the snapshot). */
  private readonly ranks = new LRUCache<string, number>({ max: CACHED_RANKS });

  constructor(private readonly store: RankSnapshotStore) {}

  /** Each entry's rank change, in order. */
  async of(board: { internalId: number; season: number }, entries: readonly { id: string; rank: number }[]): Promise<(number | null)[]> {
    if (entries.length === 0) return [];
    const snapshot = await this.latestOf(board.internalId);
    if (!snapshot || snapshot.season !== board.season) return entries.map(() => null);
    const prefix = `${board.internalId}:${snapshot.day}:`;
    const missing = entries.filter((entry) => !this.ranks.has(prefix + entry.id)).map((entry) => entry.id);
    if (missing.length > 0) {
      const found = await this.store.ranksAt(board.internalId, snapshot.day, missing);
      for (const id of missing) this.ranks.set(prefix + id, found.get(id) ?? 0);
    }
    return entries.map((entry) => {
      const then = this.ranks.get(prefix + entry.id) ?? 0;
      return then === 0 ? null : then - entry.rank;
    });
  }

  private async latestOf(internalId: number): Promise<SnapshotDay | undefined> {
    const cached = this.latest.get(internalId);
    if (cached !== undefined) return cached === 'none' ? undefined : cached;
    const found = await this.store.latest(internalId);
    this.latest.set(internalId, found ?? 'none');
    return found;
  }
}
