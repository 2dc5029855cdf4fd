import DataLoader from 'dataloader';
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
 * players read before costs no query. Lookups of concurrent reads are made together, like the
 * names': under load, one query per event-loop turn and board, not one per page.
 */
export class RankChanges {
  private readonly latest = new LRUCache<number, SnapshotDay | 'none'>({ max: 100_000, ttl: LATEST_TTL_MS });
  /** '<board>:<day>:<player>' -> the rank then (0: not in the snapshot). */
  private readonly ranks = new LRUCache<string, number>({ max: CACHED_RANKS });
  /** The same keys, looked up in PostgreSQL: one query per board and day of a batch. */
  private readonly misses = new DataLoader<string, number>(
    async (keys) => {
      const byDay = new Map<string, string[]>();
      for (const key of keys) {
        const at = key.lastIndexOf(':');
        const day = key.slice(0, at);
        const players = byDay.get(day) ?? [];
        if (players.length === 0) byDay.set(day, players);
        players.push(key.slice(at + 1));
      }
      const found = new Map<string, number>();
      await Promise.all(
        [...byDay].map(async ([day, players]) => {
          const [internalId, date] = day.split(':') as [string, string];
          for (const [player, rank] of await this.store.ranksAt(Number(internalId), date, players)) found.set(`${day}:${player}`, rank);
        }),
      );
      return keys.map((key) => found.get(key) ?? 0);
    },
    { cache: false, batchScheduleFn: (load) => setImmediate(load), maxBatchSize: 1000 },
  );

  constructor(private readonly store: RankSnapshotStore) {}

  /** Each entry's rank change, in order. */
  async of(board: { internalId: number; season: number }, entries: readonly { id: string; rank: number }[]): Promise<(number | null)[]> {
    if (entries.length === 0) return [];
    const snapshot = await this.latestOf(board.internalId);
    if (!snapshot || snapshot.season !== board.season) return entries.map(() => null);
    const prefix = `${board.internalId}:${snapshot.day}:`;
    const missing = entries.map((entry) => prefix + entry.id).filter((key) => !this.ranks.has(key));
    if (missing.length > 0) {
      const found = await Promise.all(missing.map((key) => this.misses.load(key)));
      for (const [i, key] of missing.entries()) this.ranks.set(key, found[i]!);
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
