import { setTimeout as sleep } from 'node:timers/promises';
import type { RedisClient } from '../live/redis.js';
import { lockKey, rebuildCursorKey } from '../live/keys.js';
import { requestRebuild, type RebuildMode } from '../live/rebuild-requests.js';
import { Lock, withLock } from '../locks.js';
import { NotFoundError, UnavailableError } from '../errors.js';
import { eachAtMost } from '../concurrency.js';
import type { Leaderboard, LeaderboardStore } from '../leaderboards/leaderboard-store.js';
import type { BoardPreparation, BoardSources } from './board-preparation.js';
import type { Rankings } from '../live/rankings.js';
import type { Logger } from '../logger.js';

/** How long a request waits for its board to be rebuilt before it answers 503 (the rebuild goes on). */
const RECOVERY_WAIT_MS = 2000;
/** A board's preparation lock; renewed while a large board merges. */
const BOARD_LOCK_TTL_MS = 15_000;
/** How often one process asks whether Redis lost its whole dataset, at most (on a touch of a lost board). */
const LOSS_CHECK_INTERVAL_MS = 1000;
const BOARDS_PER_STEP = 200;
/**
 * Boards a rebuild walk prepares at once: each is one slot and one board lock, so they never meet.
 * A board with persisted scores reads them in pages; one without costs a few Redis round trips.
 */
const SCORED_BOARDS_AT_ONCE = 8;
const EMPTY_BOARDS_AT_ONCE = 64;
const WALK_LOCK_TTL_MS = 60_000;

/**
 * Brings one board's live state back from PostgreSQL, under the board's lock, so one process does
 * it while the others wait for it. A request that finds its board without live state (its scripts
 * stop with LBMISSING) waits here up to RECOVERY_WAIT_MS and is then asked again, or answers 503
 * while a large board is still merging; no answer comes from a board that lost its state.
 */
export class BoardRecovery {
  private readonly inFlight = new Map<number, Promise<'prepared' | 'present' | 'gone'>>();
  private lastLossCheck = 0;

  constructor(
    private readonly deps: {
      redis: RedisClient;
      prefix: string;
      leaderboards: LeaderboardStore;
      preparation: BoardPreparation;
      rankings: Rankings;
      /** Asks whether Redis lost its whole dataset (true when it did: a rebuild walk is then asked for). */
      detectLoss: () => Promise<boolean>;
      logger: Logger;
    },
  ) {}

  /** For a call that found the board without live state: rebuilt (or found rebuilt) within RECOVERY_WAIT_MS, else 503. */
  async recover(board: { internalId: number }): Promise<void> {
    this.noticeLoss();
    let rebuilding = this.inFlight.get(board.internalId);
    if (!rebuilding) {
      rebuilding = this.prepare(board).finally(() => this.inFlight.delete(board.internalId));
      this.inFlight.set(board.internalId, rebuilding);
      // A caller that stopped waiting leaves the rebuild running; its failure is the next caller's.
      rebuilding.catch(() => undefined);
    }
    const waited = new AbortController();
    const outcome = await Promise.race([rebuilding, sleep(RECOVERY_WAIT_MS, 'waiting' as const, { signal: waited.signal })]).finally(() =>
      waited.abort(),
    );
    if (outcome === 'waiting') throw new UnavailableError('The leaderboard is being rebuilt from PostgreSQL; retry shortly.');
    if (outcome === 'gone') throw new NotFoundError('leaderboard_not_found', 'This leaderboard no longer exists.');
  }

  /**
   * Prepares the board under its lock, unless its live state is whole already (or, with `merge`, in
   * any case: every persisted score merged back); waits while another process holds the lock.
   */
  async prepare(
    board: Leaderboard | { internalId: number },
    { merge = false, sources }: { merge?: boolean; sources?: BoardSources } = {},
  ): Promise<'prepared' | 'present' | 'gone'> {
    const { redis, prefix, leaderboards, preparation, rankings } = this.deps;
    const key = lockKey(prefix, 'prepare', board);
    for (;;) {
      const lock = await Lock.acquire(redis, key, BOARD_LOCK_TTL_MS);
      if (lock) {
        const renewing = setInterval(() => void lock.renew().catch(() => undefined), BOARD_LOCK_TTL_MS / 3);
        try {
          if (!merge && (await rankings.isPrepared(board))) return 'present';
          const found = 'gameId' in board ? board : await leaderboards.findByInternalId(board.internalId);
          if (!found) return 'gone';
          await preparation.prepare(found, sources);
          return 'prepared';
        } finally {
          clearInterval(renewing);
          await lock.release().catch(() => undefined);
        }
      }
      await sleep(50);
      if (!merge && (await rankings.isPrepared(board))) return 'present';
    }
  }

  /** A board on a node that lost its data: has the whole dataset gone? (once a second per process at most) */
  private noticeLoss(): void {
    if (Date.now() - this.lastLossCheck < LOSS_CHECK_INTERVAL_MS) return;
    this.lastLossCheck = Date.now();
    this.deps.detectLoss().then(
      (lost) => lost && this.deps.logger.warn('Redis lost data (a dataset marker is gone): rebuilding from PostgreSQL'),
      () => undefined,
    );
  }
}

/**
 * Carries out a requested rebuild walk (a lost dataset; a reconnection after which Redis may lack
 * the last writes, or `npm run rebuild`, which merge every board back), a page of leaderboards at a
 * time, several boards at once. A walk of lost boards goes by recent activity, most active first, and
 * skips boards whose live state is whole (a request rebuilt it first); a walk of every board goes by
 * internal id. Merging never lowers a best score, so reports arriving meanwhile are kept. The cursor
 * in Redis records the progress: a process that dies mid-way leaves the rest to the next one, and a
 * new request made meanwhile starts the walk again instead of being lost. One process at a time (a
 * lock renewed per step).
 */
export class Rebuild {
  constructor(
    private readonly deps: {
      redis: RedisClient;
      prefix: string;
      leaderboards: LeaderboardStore;
      rankings: Rankings;
      recovery: BoardRecovery;
      preparation: BoardPreparation;
      logger: Logger;
    },
  ) {}

  /** Asks for every leaderboard to be merged back from PostgreSQL (done by the next run). */
  request(mode: RebuildMode = 'all'): Promise<void> {
    return requestRebuild(this.deps.redis, this.deps.prefix, mode);
  }

  /** The number of leaderboards rebuilt, or undefined when another process holds the walk's lock. */
  async run(): Promise<number | undefined> {
    const { redis, prefix, leaderboards, rankings, recovery, preparation, logger } = this.deps;
    const cursorKey = rebuildCursorKey(prefix);
    if ((await redis.exists(cursorKey)) === 0) return 0;
    return withLock(redis, lockKey(prefix, 'rebuild'), WALK_LOCK_TTL_MS, async (lock) => {
      const started = Date.now();
      let rebuilt = 0;
      for (;;) {
        const cursor = await redis.get(cursorKey);
        if (cursor === null || cursor === '') break;
        const { mode, after } = parseCursor(cursor);
        const page =
          mode === 'all'
            ? await leaderboards.pageAfter(after?.internalId ?? 0, BOARDS_PER_STEP)
            : await leaderboards.pageByActivity(after, BOARDS_PER_STEP);
        if (page.length === 0) {
          if ((await redis.compareAndSet(cursorKey, cursor, '')) === 1) break;
          continue; // requested again meanwhile: walk again
        }
        const prepared = mode === 'all' ? page.map(() => false) : await Promise.all(page.map((board) => rankings.isPrepared(board)));
        const wanted = page.filter((_, i) => !prepared[i]);
        const sources = await preparation.survey(wanted);
        const prepare = async (board: Leaderboard) => {
          if ((await recovery.prepare(board, { merge: mode === 'all', sources: sources.get(board.internalId) })) === 'prepared') rebuilt++;
        };
        const scored = wanted.filter((board) => sources.get(board.internalId)?.scores);
        await Promise.all([
          eachAtMost(SCORED_BOARDS_AT_ONCE, scored, prepare),
          eachAtMost(
            EMPTY_BOARDS_AT_ONCE,
            wanted.filter((board) => !sources.get(board.internalId)?.scores),
            prepare,
          ),
        ]);
        if (!(await lock.renew())) throw new Error('the rebuild lock expired; another process carries on');
        await redis.compareAndSet(cursorKey, cursor, cursorAfter(mode, page[page.length - 1]!));
      }
      if (rebuilt > 0) logger.info({ leaderboards: rebuilt, ms: Date.now() - started }, 'leaderboards rebuilt from PostgreSQL');
      return rebuilt;
    });
  }
}

/** '<mode>' (from the start) or '<mode>:<active at, ms>:<internal id>' (after that board). */
function parseCursor(cursor: string): { mode: RebuildMode; after: { activeAt: Date; internalId: number } | undefined } {
  const [mode, activeAt, internalId] = cursor.split(':');
  return {
    mode: mode === 'lost' ? 'lost' : 'all',
    after: internalId === undefined ? undefined : { activeAt: new Date(Number(activeAt)), internalId: Number(internalId) },
  };
}

function cursorAfter(mode: RebuildMode, board: Leaderboard): string {
  return `${mode}:${board.activeAt.getTime()}:${board.internalId}`;
}
