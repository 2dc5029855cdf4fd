import type { RunInTransaction } from '../db.js';
import type { LeaderboardStore } from '../leaderboards/leaderboard-store.js';
import type { Rankings } from '../live/rankings.js';
import type { Logger } from '../logger.js';
import type { Pace } from '../pace.js';
import type { RankSnapshotStore } from './rank-snapshot-store.js';

/** Boards looked for per query, and entries read from Redis and written per step. */
const BOARDS_PER_QUERY = 100;
const ENTRIES_PER_STEP = 2000;

export interface SnapshotSettings {
  /** The UTC hour from which a day's snapshots are taken (RANK_SNAPSHOT_HOUR_UTC). */
  hourUtc: number;
  /** How many of each board's first entries a snapshot keeps (RANK_SNAPSHOT_TOP). */
  top: number;
  /** How many days snapshots are kept (RANK_HISTORY_DAYS); 0 takes none. */
  keepDays: number;
}

/**
 * A board's snapshot could not be taken whole (a reset fell inside it, Redis could not read the
 * board): the transaction gives the day back, and the next round takes it again.
 */
class TakeLater extends Error {}

/**
 * Takes the daily rank snapshots (docs/history.md): once a UTC day, from RANK_SNAPSHOT_HOUR_UTC (or
 * when a worker starts later that day, as scheduled resets catch up), the first entries of every
 * board whose scores changed since its last snapshot, read from Redis as the board shows them.
 * Workers may all run it: each board's day is claimed in the transaction that writes it.
 */
export class RankSnapshots {
  /** The day this worker found nothing left to take: later rounds that day return at once. */
  private doneOn = '';

  constructor(
    private readonly deps: {
      store: RankSnapshotStore;
      leaderboards: LeaderboardStore;
      rankings: Rankings;
      transact: RunInTransaction;
      pace: Pace;
      settings: SnapshotSettings;
      logger: Logger;
    },
  ) {}

  /** Takes what is due at `now`; how many boards this worker snapshotted. */
  async takeDue(now = new Date()): Promise<number> {
    const { store, settings } = this.deps;
    const day = now.toISOString().slice(0, 10);
    if (settings.keepDays === 0 || now.getUTCHours() < settings.hourUtc || this.doneOn === day) return 0;
    await store.pruneBefore(dayBefore(day, settings.keepDays - 1));
    const skipped: number[] = [];
    let taken = 0;
    for (;;) {
      const due = await store.dueBoards(day, BOARDS_PER_QUERY, skipped);
      if (due.length === 0) break;
      for (const internalId of due) {
        const outcome = await this.take(internalId, day).catch((error: unknown) => {
          this.deps.logger.warn({ err: error, leaderboardInternalId: internalId }, 'rank snapshot not taken; retried next round');
          return 'failed' as const;
        });
        if (outcome === 'taken') taken += 1;
        // Read again next round (a minute later); this round goes on without it.
        else if (outcome === 'failed') skipped.push(internalId);
      }
    }
    if (skipped.length === 0) this.doneOn = day;
    return taken;
  }

  /** Snapshots one board's day: 'taken', 'skipped' (gone, or taken by another worker) or 'failed'. */
  async take(internalId: number, day: string): Promise<'taken' | 'skipped' | 'failed'> {
    const { leaderboards, rankings, transact, pace, settings } = this.deps;
    const board = await leaderboards.findByInternalId(internalId);
    if (!board) return 'skipped';
    const before = await rankings.scoresOf(board, 'players', []);
    if (!before) return 'failed';
    const snapshot = { day, season: before.season };
    try {
      return await transact(async (client) => {
        const store = this.deps.store.in(client);
        if (!(await store.claimDay(internalId, day, snapshot.season))) return 'skipped';
        let written = 0;
        for (let offset = 0; offset < settings.top; offset += ENTRIES_PER_STEP) {
          const limit = Math.min(ENTRIES_PER_STEP, settings.top - offset);
          const page = await pace(async () => {
            const read = await rankings.page(board, 'players', offset, limit);
            if (read)
              written += await store.writeRanks(
                internalId,
                snapshot,
                read.entries.map((entry) => ({ playerId: entry.id, rank: entry.rank, score: Number(entry.score) })),
              );
            return read;
          });
          if (!page) throw new TakeLater();
          if (page.entries.length < limit) break;
        }
        // The entries must all be of the season the day names: a reset meanwhile, and the day is taken again.
        const after = await rankings.scoresOf(board, 'players', []);
        if (after?.season !== snapshot.season) throw new TakeLater();
        await store.setEntries(internalId, day, written);
        return 'taken';
      });
    } catch (error) {
      if (error instanceof TakeLater) return 'failed';
      throw error;
    }
  }
}

/** The date `days` before `day` (both 'YYYY-MM-DD', UTC). */
function dayBefore(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}
