import { LRUCache } from 'lru-cache';
import type { RedisClient } from '../live/redis.js';
import {
  dropIdlePendingKeys,
  leaderboardKeys,
  markPendingKeys,
  pendingCountKeys,
  pendingIndexKey,
  persistAckKeys,
  persistClaimKeys,
} from '../live/keys.js';
import { QUEUED_FLAG_TTL_MS, type PersistenceHooks } from '../live/persistence-hooks.js';
import type { PersistenceQueue } from './persistence-queue.js';
import type { StoredScore } from './score-store.js';

/**
 * An index entry untouched for this long, with no marks behind it, is dropped by the sweep. A
 * process re-touches a board it keeps marking every RETOUCH_MS, far inside this, so an entry
 * is never dropped while a writer may still be between its touch and its marks.
 */
const INDEX_GRACE_MS = 60_000;
const RETOUCH_MS = 15_000;
/** Boards visited per step of the sweep and the pending count: bounds the commands in flight. */
const BATCH = 500;

/**
 * A claimed player: their entry (with their best rank this season) and their seat ('<attempts
 * used>:<entered 0|1>:<version>', '' for none).
 */
export interface ClaimedPlayer extends StoredScore {
  seat: string;
}

export interface ClaimedChanges {
  /**
   * Players whose entry is claimed, with the score ('' when it left the board), its version ('' on
   * plain best boards), its metadata as JSON ('' for none), its tiebreakers and when it was reached
   * (ms, '' but on 'earliest' boards), and its seat on boards with entry rules ('' for none).
   */
  players: ClaimedPlayer[];
  clans: { clanId: string; total: string; version: string }[];
  /** When each claimed change was first marked (ms), for the lag figure. */
  markedAt: number[];
  /** What persistAck compares: every claimed player with the value, version, seat and best rank claimed, then clan versions. */
  ack: string[];
  playerCount: number;
  /** The season the claimed values belong to ('' before the board's first report set it). */
  season: string;
}

/**
 * The persistence protocol, in one place. A script that changes a score or a clan total marks it
 * (zsets dirty / dirty-clans, in the board's slot) and takes the board's queued flag when no job
 * holds it; the worker claims the oldest marks with their current values, writes them, and acks
 * the ones that did not move meanwhile; the last ack frees the flag. Every board that may carry
 * marks sits in the pending index, written before its marks, so the sweep (stranded marks whose
 * job died), the pending count and /readyz cost O(boards with recent changes), not O(boards).
 */
export class PersistenceMarks implements PersistenceHooks {
  /** Boards this process touched in the index recently: their reports skip the touch. */
  private readonly touched = new LRUCache<number, true>({ max: 100_000, ttl: RETOUCH_MS });

  constructor(
    private readonly deps: {
      redis: RedisClient;
      prefix: string;
      queue: PersistenceQueue;
    },
  ) {}

  /**
   * Call before a script that may mark the board. Undefined (nothing to wait for) when this
   * process touched the board recently, which is the case for almost every report.
   */
  beforeMarking(board: { internalId: number }): Promise<void> | undefined {
    if (this.touched.has(board.internalId)) return undefined;
    return this.touch([board.internalId]);
  }

  /** The same for several boards at once (one round trip). */
  async beforeMarkingAll(boards: { internalId: number }[]): Promise<void> {
    const ids = [...new Set(boards.map((board) => board.internalId))].filter((id) => !this.touched.has(id));
    if (ids.length > 0) await this.touch(ids);
  }

  private async touch(ids: number[]): Promise<void> {
    await this.deps.redis.markPending(...markPendingKeys(this.deps.prefix), ...ids);
    for (const id of ids) this.touched.set(id, true);
  }

  /** Queues one job per given board (reports call this when their script took the queued flag). */
  requestJobs(internalIds: number[]): Promise<void> {
    return this.deps.queue.request(internalIds);
  }

  /** The oldest marks of a board with their current values; marks stay until acked. */
  async claim(board: { internalId: number }, maxPlayers: number, maxClans: number): Promise<ClaimedChanges> {
    const [playerMarks, clanMarks, season] = await this.deps.redis.persistClaim(
      ...persistClaimKeys(this.deps.prefix, board.internalId),
      maxPlayers,
      maxClans,
      QUEUED_FLAG_TTL_MS,
    );
    const claimed: ClaimedChanges = { players: [], clans: [], markedAt: [], ack: [], playerCount: playerMarks.length / 9, season };
    for (let i = 0; i < playerMarks.length; i += 9) {
      const [playerId, score, markedAt, version, metadata, tiebreakers, achievedAt, seat, bestRank] = playerMarks.slice(
        i,
        i + 9,
      ) as string[] as [string, string, string, string, string, string, string, string, string];
      claimed.players.push({ playerId, score, version, metadata, tiebreakers, achievedAt, seat, bestRank });
      claimed.markedAt.push(Number(markedAt));
      claimed.ack.push(playerId, score, version, seat, bestRank);
    }
    for (let i = 0; i < clanMarks.length; i += 4) {
      const clan = { clanId: clanMarks[i]!, total: clanMarks[i + 1]!, version: clanMarks[i + 2]! };
      claimed.clans.push(clan);
      claimed.markedAt.push(Number(clanMarks[i + 3]));
    }
    for (const clan of claimed.clans) claimed.ack.push(clan.clanId, clan.version);
    return claimed;
  }

  /** Keeps the board's queued flag alive while a long step of its job runs. */
  async holdJob(board: { internalId: number }): Promise<void> {
    await this.deps.redis.pexpire(leaderboardKeys(this.deps.prefix, board.internalId).queued, QUEUED_FLAG_TTL_MS);
  }

  /** Clears the claimed marks PostgreSQL now holds; the number of marks left on the board. */
  async ack(board: { internalId: number }, claimed: ClaimedChanges): Promise<number> {
    return this.deps.redis.persistAck(
      ...persistAckKeys(this.deps.prefix, board.internalId),
      claimed.season,
      claimed.playerCount,
      ...claimed.ack,
    );
  }

  /** Changes of one board accepted but not yet written to PostgreSQL (an ended season not yet archived counts one). */
  async pendingOf(board: { internalId: number }): Promise<number> {
    const [counts] = await this.markCounts([board.internalId]);
    return counts!;
  }

  /** Changes accepted but not yet written to PostgreSQL, over every board (exact). */
  async pending(): Promise<number> {
    let total = 0;
    for await (const ids of this.indexedBoards()) {
      for (const count of await this.markCounts(ids)) total += count;
    }
    return total;
  }

  /**
   * The safety net behind the report path: queues a job for every indexed board whose marks have no
   * live job (an API process died between its report and its queue add, a job's flag expired with
   * its worker, a clan move marked totals), and drops idle index entries.
   */
  async sweep(): Promise<{ requeued: number[]; dropped: number }> {
    const requeued: number[] = [];
    const idle: number[] = [];
    for await (const ids of this.indexedBoards()) {
      const counts = await this.markCounts(ids);
      await Promise.all(
        ids.map(async (id, i) => {
          if (counts[i] === 0) {
            idle.push(id);
            return;
          }
          const queued = leaderboardKeys(this.deps.prefix, id).queued;
          if ((await this.deps.redis.set(queued, '1', 'PX', QUEUED_FLAG_TTL_MS, 'NX')) === 'OK') requeued.push(id);
        }),
      );
    }
    if (requeued.length > 0) await this.deps.queue.request(requeued);
    let dropped = 0;
    for (let i = 0; i < idle.length; i += BATCH) {
      dropped += await this.deps.redis.dropIdlePending(
        ...dropIdlePendingKeys(this.deps.prefix),
        INDEX_GRACE_MS,
        ...idle.slice(i, i + BATCH),
      );
    }
    return { requeued, dropped };
  }

  /** The indexed boards, a batch at a time, by rank in the index (the sweep drops entries only after the walk). */
  private async *indexedBoards(): AsyncGenerator<number[]> {
    for (let start = 0; ; start += BATCH) {
      const ids = await this.deps.redis.zrange(pendingIndexKey(this.deps.prefix), String(start), String(start + BATCH - 1));
      if (ids.length > 0) yield ids.map(Number);
      if (ids.length < BATCH) return;
    }
  }

  /**
   * Each board's changes not yet in PostgreSQL: one script call per board (its keys share a slot),
   * a third of the commands three plain counts took; /readyz runs this over every indexed board.
   */
  private markCounts(ids: number[]): Promise<number[]> {
    return Promise.all(ids.map((id) => this.deps.redis.pendingCount(...pendingCountKeys(this.deps.prefix, id))));
  }
}
