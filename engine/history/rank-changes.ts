import DataLoader from 'dataloader';
import { LRUCache } from 'lru-cache';
import type { RankSnapshotStore, SnapshotDay } from './rank-snapshot-store.js';

/** How long a process takes a board's latest snapshot day as known: a new day shows within this. */
const LATEST_TTL_MS = 60_000;
/** Single snapshot ranks kept in the process, for boards whose snapshot is not held whole. */
const CACHED_RANKS = 200_000;
/**
 * Whole snapshots held per process: 16 MiB, a few of 100,000 entries or dozens of the default
 * 10,000, well inside the API's heap (API_HEAP_MB, 96 by default).
 */
const HELD_SNAPSHOT_BYTES = 16 * 2 ** 20;
/** What a held entry takes: its id (a V8 string of 12 characters and its slot) and its rank. */
const HELD_ENTRY_BYTES = 48;
/** A snapshot this small is loaded before the read that first needs it answers (milliseconds); larger ones meanwhile. */
const LOADED_FIRST_ENTRIES = 10_000;

/** A board's snapshot, whole: its player ids sorted, and their ranks. */
class HeldSnapshot {
  constructor(
    private readonly playerIds: string[],
    private readonly ranks: Int32Array,
  ) {}

  get bytes(): number {
    return Math.max(1, this.playerIds.length * HELD_ENTRY_BYTES);
  }

  /** The player's rank then, or 0 when not in it (a binary search). */
  rankOf(playerId: string): number {
    let low = 0;
    let high = this.playerIds.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const id = this.playerIds[middle]!;
      if (id === playerId) return this.ranks[middle]!;
      if (id < playerId) low = middle + 1;
      else high = middle - 1;
    }
    return 0;
  }
}

/**
 * `rank_change` of list entries (docs/history.md part 2): the rank at the board's latest snapshot
 * minus the rank now; null when the player was not in it, or it holds another season. A snapshot
 * never changes once taken, so nothing cached of it needs invalidation. Each process holds whole
 * snapshots, within HELD_SNAPSHOT_BYTES, each loaded in one query: a page at any offset then costs
 * no query for its changes. A board past that budget (or while its large snapshot loads) has its
 * players' ranks looked up: those of concurrent reads together, like the names, and kept.
 */
export class RankChanges {
  private readonly latest = new LRUCache<number, SnapshotDay | 'none'>({ max: 100_000, ttl: LATEST_TTL_MS });
  /** '<board>:<day>' -> the snapshot, whole. */
  private readonly held: LRUCache<string, HeldSnapshot>;
  /** Snapshots being loaded, so that concurrent reads load each once. */
  private readonly loading = new Map<string, Promise<HeldSnapshot | undefined>>();
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

  constructor(
    private readonly store: RankSnapshotStore,
    options: { heldBytes?: number } = {},
  ) {
    this.held = new LRUCache<string, HeldSnapshot>({
      maxSize: Math.max(1, options.heldBytes ?? HELD_SNAPSHOT_BYTES),
      sizeCalculation: (snapshot) => snapshot.bytes,
    });
  }

  /** Each entry's rank change, in order. */
  async of(board: { internalId: number; season: number }, entries: readonly { id: string; rank: number }[]): Promise<(number | null)[]> {
    if (entries.length === 0) return [];
    const snapshot = await this.latestOf(board.internalId);
    if (!snapshot || snapshot.season !== board.season) return entries.map(() => null);
    const held = await this.heldSnapshot(board.internalId, snapshot);
    if (held) {
      return entries.map((entry) => {
        const then = held.rankOf(entry.id);
        return then === 0 ? null : then - entry.rank;
      });
    }
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

  /**
   * The snapshot whole, when held; else starts loading it if it fits the budget (waited for when
   * small), and answers undefined meanwhile.
   */
  private async heldSnapshot(internalId: number, snapshot: SnapshotDay): Promise<HeldSnapshot | undefined> {
    const key = `${internalId}:${snapshot.day}`;
    const held = this.held.get(key);
    if (held) return held;
    if (snapshot.entries * HELD_ENTRY_BYTES > this.held.maxSize) return undefined;
    let loading = this.loading.get(key);
    if (!loading) {
      loading = this.store
        .snapshotOf(internalId, snapshot.day)
        .then(({ playerIds, ranks }) => {
          const loaded = new HeldSnapshot(playerIds, Int32Array.from(ranks));
          this.held.set(key, loaded);
          return loaded;
        })
        // Not held, this time: the lookups serve, and the next read tries again.
        .catch(() => undefined)
        .finally(() => this.loading.delete(key));
      this.loading.set(key, loading);
    }
    return snapshot.entries <= LOADED_FIRST_ENTRIES ? loading : undefined;
  }

  private async latestOf(internalId: number): Promise<SnapshotDay | undefined> {
    const cached = this.latest.get(internalId);
    if (cached !== undefined) return cached === 'none' ? undefined : cached;
    const found = await this.store.latest(internalId);
    this.latest.set(internalId, found ?? 'none');
    return found;
  }
}
