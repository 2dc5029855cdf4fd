import type { Actor, AuditStore } from '../audit/audit-store.js';
import type { RunInTransaction } from '../db.js';
import type { Leaderboard, LeaderboardStore } from '../leaderboards/leaderboard-store.js';
import type { Logger } from '../logger.js';
import type { PersistenceMarks } from '../persistence/marks.js';
import type { Rankings, SeasonedBoard } from '../ranking/rankings.js';
import type { ResetSchedules } from './reset-schedules.js';
import { nextResetAt } from './schedule.js';
import type { SeasonStore } from './season-store.js';

export interface SeasonSummary {
  season: number;
  startedAt: Date;
  /** null for the current season. */
  endedAt: Date | null;
  total: number;
}

/** Attempts at a reset while other resets keep moving the season on under it. */
const RESET_ATTEMPTS = 5;

/**
 * Seasons: resets (asked now, or scheduled and run by the worker) and the list of a board's seasons.
 * The reset itself is one script in the board's slot (Rankings.reset); PostgreSQL learns of it
 * right away when it can, and for certain when the worker archives the ended season.
 */
export class SeasonService {
  constructor(
    private readonly deps: {
      rankings: Rankings;
      marks: PersistenceMarks;
      leaderboards: LeaderboardStore;
      archives: SeasonStore;
      schedules: ResetSchedules;
      transact: RunInTransaction;
      audit: AuditStore;
      logger: Logger;
      /** Tells every process that leaderboards changed (their cached season). */
      announce: () => Promise<void>;
    },
  ) {}

  /**
   * Ends the current season now (or, with `scheduledFor`, the scheduled reset of that time, at most
   * once). Undefined when that scheduled reset had already been carried out. Audited where
   * PostgreSQL learns of it: here, with the actor, when it can; else by the archive, as 'system'.
   */
  async reset(board: SeasonedBoard, actor: Actor, scheduledFor?: number): Promise<{ season: number; archivedSeason: number } | undefined> {
    const { rankings, marks, logger, announce } = this.deps;
    for (let attempt = 0; attempt < RESET_ATTEMPTS; attempt++) {
      const outcome = await rankings.reset(board, await rankings.currentSeason(board), scheduledFor);
      if (!outcome.reset) {
        if (outcome.alreadyDone) return undefined;
        continue; // another reset moved the season on between the read and the script: end the new one
      }
      if (outcome.needsPersistence) await marks.requestJobs([board.internalId]);
      // Best effort: the archive records the new season in PostgreSQL for certain (and audits it if this did not).
      await this.recordReset(board.internalId, outcome.season, new Date(outcome.endedAt), actor).catch((error: unknown) => {
        logger.warn({ err: error, leaderboardInternalId: board.internalId }, 'season reset: PostgreSQL will learn of it from the archive');
      });
      await announce().catch(() => undefined);
      return { season: outcome.season, archivedSeason: outcome.season - 1 };
    }
    throw new Error(`leaderboard ${board.internalId}: the season kept moving during the reset`);
  }

  /**
   * Moves PostgreSQL's season on, with its audit entry in the same transaction. Only the move that
   * changed the row records: the archive, which takes the same row lock, records it otherwise.
   */
  private recordReset(internalId: number, season: number, startedAt: Date, actor: Actor): Promise<void> {
    const { transact, leaderboards, audit } = this.deps;
    return transact(async (client) => {
      const moved = await leaderboards.in(client).advanceSeason(internalId, season, startedAt);
      if (!moved) return;
      await audit.in(client).record({
        gameId: moved.gameId,
        actor,
        action: 'leaderboard.reset',
        target: moved.id,
        details: { archived_season: season - 1, season },
      });
    });
  }

  /** Every season of a board, newest first: the current one, ended ones awaiting their archive, archived ones. */
  async list(board: Leaderboard): Promise<{ currentSeason: number; seasons: SeasonSummary[] }> {
    const { rankings, archives } = this.deps;
    // Redis before PostgreSQL: the worker commits an archive before it drops the season's Redis keys, so
    // a season read here as pending (its count 0 if dropped meanwhile) is found archived below, which wins.
    const endedInRedis = async () =>
      Promise.all(
        [...(await rankings.pendingArchives(board))].map(async ([season, times]) => ({
          season,
          startedAt: new Date(times.startedAt),
          endedAt: new Date(times.endedAt),
          total: await rankings.endedCount(board, season),
        })),
      );
    const [current, started, total, pending] = await Promise.all([
      rankings.currentSeason(board),
      rankings.currentSeasonStart(board),
      rankings.count(board),
      endedInRedis(),
    ]);
    const archived = await archives.list(board.internalId);
    const seasons = new Map<number, SeasonSummary>();
    for (const ended of pending) seasons.set(ended.season, ended);
    for (const { season, startedAt, endedAt, total } of archived) seasons.set(season, { season, startedAt, endedAt, total });
    seasons.set(current, { season: current, startedAt: started, endedAt: null, total });
    return { currentSeason: current, seasons: [...seasons.values()].sort((a, b) => b.season - a.season) };
  }

  /**
   * The worker's scheduler round: every board whose reset time has come is reset once (a reset missed
   * while no worker ran happens now, once), and its entry moves on to the next time after now.
   */
  async runDueResets(now = Date.now()): Promise<number> {
    const { schedules, leaderboards, logger } = this.deps;
    let done = 0;
    for (const { internalId, dueAt } of await schedules.due(now)) {
      const schedule = await schedules.scheduleOf(internalId);
      if (!schedule) continue;
      const board = await leaderboards.findByInternalId(internalId).catch(() => null);
      if (board === undefined) {
        await schedules.advance(internalId, null); // deleted
        continue;
      }
      const reset = await this.reset(board ?? (await this.boardFromRedis(internalId)), 'system', dueAt);
      if (reset) {
        done++;
        logger.info({ leaderboardInternalId: internalId, season: reset.season, dueAt: new Date(dueAt) }, 'scheduled season reset');
      }
      await schedules.advance(internalId, nextResetAt(schedule, new Date(Math.max(now, dueAt))));
    }
    return done;
  }

  /**
   * While PostgreSQL is down, what Redis knows of a board is enough to reset it (a start time of 0
   * means "as PostgreSQL knows it", which the archive reads).
   */
  private async boardFromRedis(internalId: number): Promise<SeasonedBoard> {
    const season = await this.deps.rankings.currentSeason({ internalId, season: 1, seasonStartedAt: new Date(0) });
    return { internalId, season, seasonStartedAt: new Date(0) };
  }
}
