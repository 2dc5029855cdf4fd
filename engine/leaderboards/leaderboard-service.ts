import { LRUCache } from 'lru-cache';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import type { Invalidator } from '../invalidator.js';
import type { LiveState } from '../ranking/live-state.js';
import type { Rankings } from '../ranking/rankings.js';
import type { ResetSchedules } from '../seasons/reset-schedules.js';
import { scheduleProblem } from '../seasons/schedule.js';
import type { SeasonStore } from '../seasons/season-store.js';
import type { Leaderboard, LeaderboardSettings, LeaderboardStore } from './leaderboard-store.js';

const DEFAULTS: Omit<LeaderboardSettings, 'name'> = {
  type: 'individual',
  sortOrder: 'desc',
  clientReports: true,
  minScore: null,
  maxScore: null,
  resetSchedule: null,
  keepSeasons: 52,
  updateStrategy: 'best',
};

/**
 * Leaderboard definitions. Lookups are cached per process (every report needs one) and dropped in
 * every process when a leaderboard changes.
 */
export class LeaderboardService {
  private readonly cache = new LRUCache<string, Leaderboard>({ max: 20_000, ttl: 60_000 });

  constructor(
    private readonly store: LeaderboardStore,
    private readonly rankings: Rankings,
    private readonly liveState: LiveState,
    private readonly invalidator: Invalidator,
    private readonly seasons: { archives: SeasonStore; schedules: ResetSchedules },
  ) {
    invalidator.onChange((change) => {
      if (change.kind === 'leaderboards' || change.kind === 'all') this.cache.clear();
    });
  }

  async get(gameId: string, leaderboardId: string): Promise<Leaderboard> {
    const cacheKey = `${gameId}\u0000${leaderboardId}`;
    let leaderboard = this.cache.get(cacheKey);
    if (!leaderboard) {
      leaderboard = await this.store.find(gameId, leaderboardId);
      if (!leaderboard) {
        throw new NotFoundError('leaderboard_not_found', `This game has no leaderboard '${leaderboardId}'.`);
      }
      this.cache.set(cacheKey, leaderboard);
    }
    return leaderboard;
  }

  /** A game's leaderboards, oldest first, a page at a time. */
  list(gameId: string, offset: number, limit: number): Promise<{ total: number; leaderboards: Leaderboard[] }> {
    return this.store.pageByGame(gameId, offset, limit);
  }

  /** Every leaderboard of a game, oldest first. */
  all(gameId: string): Promise<Leaderboard[]> {
    return this.store.allOf(gameId);
  }

  /** A game's clan leaderboards. */
  clanBoards(gameId: string): Promise<Leaderboard[]> {
    return this.store.clanBoardsOf(gameId);
  }

  /** Creates the leaderboard or updates the given settings; type, order and strategy are fixed once scored. */
  async put(
    gameId: string,
    leaderboardId: string,
    changes: Partial<LeaderboardSettings>,
  ): Promise<{ leaderboard: Leaderboard; created: boolean }> {
    const existing = await this.store.find(gameId, leaderboardId);
    if (!existing) {
      const settings = checked({ name: leaderboardId, ...DEFAULTS, ...changes });
      const inserted = await this.store.insert(gameId, leaderboardId, settings);
      if (inserted) {
        await this.liveState.prepare(inserted);
        await this.seasons.schedules.set(inserted);
        await this.invalidator.leaderboardsChanged();
        return { leaderboard: inserted, created: true };
      }
      return this.put(gameId, leaderboardId, changes); // created concurrently: update it instead
    }

    const settings = checked({ ...existing, ...changes });
    const reshaped =
      settings.type !== existing.type || settings.sortOrder !== existing.sortOrder || settings.updateStrategy !== existing.updateStrategy;
    if (reshaped && (await this.hasScores(existing))) {
      throw new ConflictError(
        'The type, sort_order and update_strategy of a leaderboard cannot change once it has scores (archived seasons included).',
      );
    }
    const updated = await this.store.update(existing.internalId, settings);
    if (!updated) return this.put(gameId, leaderboardId, changes); // deleted concurrently
    if (settings.type !== existing.type) {
      await this.rankings.drop(updated);
      await this.liveState.prepare(updated);
    } else if (settings.updateStrategy !== existing.updateStrategy) {
      await this.rankings.markPrepared(updated); // a board that has had no report yet: latest and sum wait for it
    }
    if (JSON.stringify(settings.resetSchedule) !== JSON.stringify(existing.resetSchedule)) await this.seasons.schedules.set(updated);
    if (settings.keepSeasons < existing.keepSeasons) await this.seasons.archives.dropBeyond(updated.internalId, settings.keepSeasons);
    await this.invalidator.leaderboardsChanged();
    return { leaderboard: updated, created: false };
  }

  /**
   * Final: the scores go from Redis and PostgreSQL, and queued jobs cannot bring them back.
   * Atomic: the row deletion (scores cascade), then one UNLINK of every key (one slot). Not atomic
   * together; it need not be: jobs and reports look the leaderboard up by its internal id first,
   * and a job finding it gone removes whatever a racing report left in Redis.
   */
  async delete(gameId: string, leaderboardId: string): Promise<void> {
    const leaderboard = await this.store.find(gameId, leaderboardId);
    if (!leaderboard) {
      throw new NotFoundError('leaderboard_not_found', `This game has no leaderboard '${leaderboardId}'.`);
    }
    await this.store.delete(leaderboard.internalId);
    await this.rankings.drop(leaderboard);
    await this.seasons.schedules.set({ internalId: leaderboard.internalId, resetSchedule: null });
    await this.invalidator.leaderboardsChanged();
  }

  /** Scores in the current season, in an ended one awaiting its archive, or in a kept archive. */
  private async hasScores(leaderboard: Leaderboard): Promise<boolean> {
    if ((await this.rankings.count(leaderboard)) > 0) return true;
    if ((await this.rankings.pendingArchives(leaderboard)).size > 0) return true;
    return (await this.seasons.archives.list(leaderboard.internalId)).some((season) => season.total > 0);
  }
}

function checked<T extends LeaderboardSettings>(settings: T): T {
  const problem = settings.resetSchedule && scheduleProblem(settings.resetSchedule);
  if (problem) throw new ValidationError(`reset_schedule: ${problem}.`, [{ field: 'reset_schedule', message: problem }]);
  if (settings.minScore !== null && settings.maxScore !== null && settings.minScore > settings.maxScore) {
    throw new ValidationError('min_score must not be greater than max_score.', [
      { field: 'min_score', message: 'must not be greater than max_score' },
    ]);
  }
  return settings;
}
