import type { Actor, AuditStore } from '../audit/audit-store.js';
import type { RunInTransaction } from '../db.js';
import type { Leaderboard, LeaderboardStore } from '../leaderboards/leaderboard-store.js';
import type { Logger } from '../logger.js';
import type { SeasonRotation } from '../live/season-rotation.js';
import type { ResetSchedules } from './reset-schedules.js';
import type { SeasonArchiveStore } from './season-archive-store.js';
import { eachAtMost } from '../concurrency.js';

export interface SeasonSummary {
  season: number;
  startedAt: Date;
  /** null for the current season. */
  endedAt: Date | null;
  total: number;
}

/** Attempts at a reset while other resets keep moving the season on under it. */
const RESET_ATTEMPTS = 5;
/** Boards the scheduler looks at at once, and finds in PostgreSQL per query. */
const DUE_AT_ONCE = 64;
const DUE_PAGE = 1000;

/**
 * Seasons: resets (asked now, or scheduled) and the list of a board's seasons. The reset itself is
 * one script in the board's slot (SeasonRotation.reset); a scheduled one is carried out by whichever
 * script first finds its instant past, or by the worker's scheduler on boards nobody touches.
 * PostgreSQL learns of it right away when it can, and for certain when the worker archives the
 * ended season.
 */
export class SeasonService {
  constructor(
    private readonly deps: {
      rotation: SeasonRotation;
      leaderboards: LeaderboardStore;
      archives: SeasonArchiveStore;
      schedules: ResetSchedules;
      transact: RunInTransaction;
      audit: AuditStore;
      logger: Logger;
      /** Tells every process that leaderboards changed (their cached season). */
      announce: () => Promise<void>;
    },
  ) {}

  /**
   * Ends the current season now. Audited where PostgreSQL learns of it: here, with the actor, when it
   * can; else by the archive, as 'system'.
   */
  async reset(board: Leaderboard, actor: Actor): Promise<{ season: number; archivedSeason: number }> {
    const { rotation } = this.deps;
    for (let attempt = 0; attempt < RESET_ATTEMPTS; attempt++) {
      const outcome = await rotation.reset(board, (await rotation.seasons(board)).season, 'now');
      if (!outcome.reset) continue; // another reset moved the season on between the read and the script: end the new one
      await this.recordReset(board.internalId, outcome, actor);
      await this.deps.announce().catch(() => undefined);
      return { season: outcome.season, archivedSeason: outcome.season - 1 };
    }
    throw new Error(`leaderboard ${board.internalId}: the season kept moving during the reset`);
  }

  /**
   * Moves PostgreSQL's season on, with its audit entry in the same transaction. Only the move that
   * changed the row records: the archive, which takes the same row lock, records it otherwise (also
   * when this fails: best effort, the archive records the new season for certain).
   */
  private async recordReset(internalId: number, outcome: { season: number; endedAt: number }, actor: Actor): Promise<void> {
    const { transact, leaderboards, audit, logger } = this.deps;
    const { season } = outcome;
    const startedAt = new Date(outcome.endedAt);
    await transact(async (client) => {
      const moved = await leaderboards.in(client).advanceSeason(internalId, season, startedAt);
      if (!moved) return;
      await audit.in(client).record({
        gameId: moved.gameId,
        actor,
        action: 'leaderboard.reset',
        target: moved.id,
        details: { archived_season: season - 1, season },
      });
    }).catch((error: unknown) => {
      logger.warn({ err: error, leaderboardInternalId: internalId }, 'season reset: PostgreSQL will learn of it from the archive');
    });
  }

  /** Every season of a board, newest first: the current one, ended ones awaiting their archive, archived ones. */
  async list(board: Leaderboard): Promise<{ currentSeason: number; seasons: SeasonSummary[] }> {
    const { rotation, archives } = this.deps;
    // Redis before PostgreSQL: the worker commits an archive before it drops the season's Redis keys, so
    // a season read here as pending (its count 0 if dropped meanwhile) is found archived below, which wins.
    const live = await rotation.seasons(board);
    const pending = await Promise.all(
      [...live.ended].map(async ([season, times]) => ({
        season,
        startedAt: new Date(times.startedAt),
        endedAt: new Date(times.endedAt),
        total: await rotation.endedCount(board, season),
      })),
    );
    const archived = await archives.list(board.internalId);
    const seasons = new Map<number, SeasonSummary>();
    for (const ended of pending) seasons.set(ended.season, ended);
    for (const { season, startedAt, endedAt, total } of archived) seasons.set(season, { season, startedAt, endedAt, total });
    seasons.set(live.season, { season: live.season, startedAt: live.startedAt, endedAt: null, total: live.total });
    return { currentSeason: live.season, seasons: [...seasons.values()].sort((a, b) => b.season - a.season) };
  }

  /**
   * The worker's scheduler round: every board whose next scheduled reset has come is looked at, and
   * its season ended at that instant unless a script of its own did so first (a reset missed while
   * no worker ran happens now, once). Boards are looked at side by side, games taking turns, so no
   * game's boards hold up another's; only then are their coming instants filled again and the
   * resets recorded in PostgreSQL. A board whose look fails is looked at again a little later, after
   * the others. The number of seasons this round ended.
   */
  async runDueResets(now = Date.now()): Promise<number> {
    const { schedules, rotation, logger, announce } = this.deps;
    const ids = await schedules.due(now);
    if (ids.length === 0) return 0;
    const looked: { internalId: number; ended?: { season: number; endedAt: number } }[] = [];
    const failed = async (internalId: number, error: unknown) => {
      logger.warn({ err: error, leaderboardInternalId: internalId }, 'scheduled reset failed; looking again shortly');
      await schedules.retryLater(internalId, now).catch(() => undefined);
    };
    // While PostgreSQL is down, what Redis knows of a board is enough to end its season.
    const boards = await this.boardsOf(ids).catch(() => undefined);
    const order = boards ? takingTurns(ids, (id) => boards.get(id)?.gameId ?? '') : ids;
    await eachAtMost(DUE_AT_ONCE, order, async (internalId) => {
      const board = boards ? boards.get(internalId) : { internalId };
      if (!board) return schedules.forget(internalId); // deleted
      try {
        const outcome = await rotation.endIfDue(board);
        looked.push({ internalId, ...(outcome.reset && { ended: outcome }) });
      } catch (error) {
        await failed(internalId, error);
      }
    });
    await eachAtMost(DUE_AT_ONCE, looked, async ({ internalId, ended }) => {
      try {
        const schedule = await schedules.scheduleOf(internalId);
        if (schedule) await schedules.refill(internalId, schedule, new Date(now));
        if (!ended) return;
        logger.info(
          { leaderboardInternalId: internalId, season: ended.season, endedAt: new Date(ended.endedAt) },
          'scheduled season reset',
        );
        await this.recordReset(internalId, ended, 'system');
      } catch (error) {
        await failed(internalId, error);
      }
    });
    const endedCount = looked.filter(({ ended }) => ended).length;
    if (endedCount > 0) await announce().catch(() => undefined);
    return endedCount;
  }

  /** The leaderboards of the given internal ids that exist, a page of them per query. */
  private async boardsOf(internalIds: number[]): Promise<Map<number, Leaderboard>> {
    const found = new Map<number, Leaderboard>();
    for (let from = 0; from < internalIds.length; from += DUE_PAGE) {
      for (const [id, board] of await this.deps.leaderboards.findManyByInternalId(internalIds.slice(from, from + DUE_PAGE)))
        found.set(id, board);
    }
    return found;
  }
}

/** The items with their groups taking turns (a, b, a, b, a, ...), each group's items in their order. */
function takingTurns<T>(items: T[], groupOf: (item: T) => string): T[] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(groupOf(item));
    if (group) group.push(item);
    else groups.set(groupOf(item), [item]);
  }
  const queues = [...groups.values()];
  const order: T[] = [];
  for (let round = 0; order.length < items.length; round++) {
    for (const queue of queues) if (round < queue.length) order.push(queue[round]!);
  }
  return order;
}
