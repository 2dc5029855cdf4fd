import { LRUCache } from 'lru-cache';
import type { Actor, AuditStore } from '../audit/audit-store.js';
import type { RunInTransaction } from '../db.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import type { Invalidator } from '../invalidator.js';
import type { BoardRecovery } from '../recovery/rebuild.js';
import type { Rankings, Seat } from '../live/rankings.js';
import type { SeasonRotation } from '../live/season-rotation.js';
import { layoutOf } from '../live/types.js';
import type { ResetSchedules } from '../seasons/reset-schedules.js';
import { scheduleProblem, shortestGap } from '../seasons/schedule.js';
import { windowOf, windowState, type WindowState } from '../competitions/window.js';
import { bandsProblem, bandsView } from '../competitions/rewards.js';
import type { LeagueSettings } from '../competitions/leagues.js';
import type { SeasonArchiveStore } from '../seasons/season-archive-store.js';
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
  tieBreak: 'shared',
  tiebreakers: [],
  opensAt: null,
  closesAt: null,
  windowSeason: null,
  openSeconds: null,
  joinRequired: false,
  maxPlayers: null,
  maxAttempts: null,
  groups: null,
  rewards: [],
  rewardsBy: 'rank',
  listed: false,
  notifyTop: 0,
  review: null,
};

/**
 * Leaderboard definitions. Lookups are cached per process (every report needs one) and dropped in
 * every process when a leaderboard changes.
 */
export class LeaderboardService {
  private readonly cache = new LRUCache<string, Leaderboard>({ max: 20_000, ttl: 60_000 });

  constructor(
    private readonly deps: {
      store: LeaderboardStore;
      rankings: Rankings;
      rotation: SeasonRotation;
      recovery: BoardRecovery;
      invalidator: Invalidator;
      archives: SeasonArchiveStore;
      schedules: ResetSchedules;
      transact: RunInTransaction;
      audit: AuditStore;
    },
  ) {
    deps.invalidator.onChange((change) => {
      if (change.kind === 'leaderboards' || change.kind === 'all') this.cache.clear();
    });
  }

  async get(gameId: string, leaderboardId: string): Promise<Leaderboard> {
    const cacheKey = cacheKeyOf(gameId, leaderboardId);
    let leaderboard = this.cache.get(cacheKey);
    if (!leaderboard) {
      leaderboard = await this.read(gameId, leaderboardId);
      this.cache.set(cacheKey, leaderboard);
    }
    return leaderboard;
  }

  /**
   * The leaderboard as PostgreSQL holds it now, past the cache: what the game server reads back after
   * a change sees the change, whichever API process made it.
   */
  async read(gameId: string, leaderboardId: string): Promise<Leaderboard> {
    const leaderboard = await this.deps.store.find(gameId, leaderboardId);
    if (!leaderboard) throw new NotFoundError('leaderboard_not_found', `This game has no leaderboard '${leaderboardId}'.`);
    return leaderboard;
  }

  /** A game's leaderboards, oldest first, a page at a time. */
  list(gameId: string, offset: number, limit: number): Promise<{ total: number; leaderboards: Leaderboard[] }> {
    return this.deps.store.pageByGame(gameId, offset, limit);
  }

  /** A game's listed leaderboards (the client's competitions list), oldest first, in `state` when given. */
  listed(
    gameId: string,
    state: WindowState | undefined,
    offset: number,
    limit: number,
  ): Promise<{ total: number; leaderboards: Leaderboard[] }> {
    return this.deps.store.pageListed(gameId, state, offset, limit);
  }

  /** The seats taken in the board's current season, and the player's part in it (the competitions list). */
  seatOf(board: Leaderboard, playerId: string): Promise<Seat> {
    return this.deps.rankings.seatOf(board, playerId);
  }

  /** Every leaderboard of a game, oldest first. */
  all(gameId: string): Promise<Leaderboard[]> {
    return this.deps.store.allOf(gameId);
  }

  /** A game's clan leaderboards. */
  clanBoards(gameId: string): Promise<Leaderboard[]> {
    return this.deps.store.clanBoardsOf(gameId);
  }

  /** Creates the leaderboard or updates the given settings; type, order and strategy are fixed once scored. */
  async put(
    gameId: string,
    leaderboardId: string,
    changes: Partial<LeaderboardSettings>,
    actor: Actor,
  ): Promise<{ leaderboard: Leaderboard; created: boolean }> {
    const { transact, audit } = this.deps;
    const existing = await this.deps.store.find(gameId, leaderboardId);
    if (!existing) {
      const inserted = await this.insert(gameId, leaderboardId, changes, actor);
      if (inserted) return { leaderboard: inserted, created: true };
      return this.put(gameId, leaderboardId, changes, actor); // created concurrently: update it instead
    }

    const settings = checked(await this.windowed(existing, changes), existing);
    const changed = changedSettings(existing, settings);
    const reshaped = RESHAPING.some((field) => field in changed);
    if (reshaped && (await this.hasScores(existing))) {
      throw new ConflictError(
        'The type, sort_order, update_strategy, tie_break and tiebreakers of a leaderboard cannot change once it has scores (archived seasons included).',
      );
    }
    // Groups hold the season's players: set up before the first score or entry, then only tiers added at the top.
    if ('groups' in changed && !tiersAppended(existing.groups, settings.groups) && (await this.hasPlayers(existing))) {
      throw new ConflictError('The groups of a leaderboard cannot change once it has players or scores, except tiers added at the top.');
    }
    // Redis takes a new layout first, and only while the board holds no entry: a report racing this
    // change either lands before (then this is refused) or is refused as laid out for old settings.
    const layout = layoutOf(settings);
    const relaid = layout !== layoutOf(existing);
    if (relaid && !(await this.deps.rankings.setLayout(existing, layout))) {
      throw new ConflictError('The leaderboard received its first scores meanwhile; its tie settings can no longer change.');
    }
    const updated = await transact(async (client) => {
      const row = await this.deps.store.in(client).update(existing.internalId, settings);
      // A PUT that changes nothing is no change to record.
      if (row && Object.keys(changed).length > 0) {
        await audit.in(client).record({ gameId, actor, action: 'leaderboard.update', target: leaderboardId, details: changed });
      }
      return row;
    }).catch(async (error: unknown) => {
      if (relaid) await this.deps.rankings.setLayout(existing, layoutOf(existing)).catch(() => undefined);
      throw error;
    });
    if (!updated) return this.put(gameId, leaderboardId, changes, actor); // deleted concurrently
    if (settings.type !== existing.type) {
      await this.deps.rotation.drop(updated);
      await this.deps.recovery.prepare(updated);
    }
    if (JSON.stringify(settings.resetSchedule) !== JSON.stringify(existing.resetSchedule)) await this.deps.schedules.set(updated);
    if (settings.keepSeasons < existing.keepSeasons) await this.deps.archives.dropBeyond(updated.internalId, settings.keepSeasons);
    await this.deps.invalidator.leaderboardsChanged();
    return { leaderboard: updated, created: false };
  }

  /**
   * The settings with the window stamped with the live season (a window belongs to the season it is
   * set in: docs/competitions.md). A window of an earlier season is gone; the window and the rewards
   * of a season that has closed are final (409 to change them).
   */
  private async windowed(existing: Leaderboard, changes: Partial<LeaderboardSettings>): Promise<LeaderboardSettings> {
    const settings = { ...existing, ...changes };
    const touched = changes.opensAt !== undefined || changes.closesAt !== undefined || changes.openSeconds !== undefined;
    if (!touched && existing.windowSeason === null && existing.openSeconds === null) return settings;
    const { season, startedAt } = await this.deps.rotation.seasons(existing);
    const oneOff = windowOf({ ...existing, openSeconds: null }, season, startedAt);
    const opensAt = changes.opensAt === undefined ? (oneOff?.opensAt ?? null) : changes.opensAt;
    const closesAt = changes.closesAt === undefined ? (oneOff?.closesAt ?? null) : changes.closesAt;
    const windowSeason = opensAt === null && closesAt === null ? null : season;
    const updated = { ...settings, opensAt, closesAt, windowSeason };
    const [before, after] = [windowOf(existing, season, startedAt), windowOf(updated, season, startedAt)];
    const same = (a: Date | null | undefined, b: Date | null | undefined) => (a?.getTime() ?? null) === (b?.getTime() ?? null);
    const closed = before !== null && windowState(before, Date.now()) === 'closed';
    if (closed && !(same(before.opensAt, after?.opensAt) && same(before.closesAt, after?.closesAt))) {
      throw new ConflictError("The current season's window has closed: it stays as it ended until the next reset.");
    }
    if (
      closed &&
      (JSON.stringify(bandsView(updated.rewards)) !== JSON.stringify(bandsView(existing.rewards)) ||
        updated.rewardsBy !== existing.rewardsBy)
    ) {
      throw new ConflictError('The current season has closed: its rewards stay as they were until the next reset.');
    }
    if (closed && JSON.stringify(updated.groups) !== JSON.stringify(existing.groups)) {
      throw new ConflictError('The current season has closed: its groups stay as they were until the next reset.');
    }
    return updated;
  }

  /**
   * Brings the board's layout in Redis in line with its settings in PostgreSQL, after a report found
   * them apart (a process with the old settings in its cache, or a settings change cut short between
   * Redis and PostgreSQL): the cached settings are dropped, and an empty board takes the layout of
   * PostgreSQL's settings.
   */
  async alignLayout(board: Leaderboard): Promise<void> {
    this.cache.delete(cacheKeyOf(board.gameId, board.id));
    const current = await this.deps.store.findByInternalId(board.internalId);
    if (current) await this.deps.rankings.setLayout(current, layoutOf(current));
  }

  /** Creates the leaderboard, never changing one: an id already in use is 409 already_exists. */
  async create(gameId: string, leaderboardId: string, settings: Partial<LeaderboardSettings>, actor: Actor): Promise<Leaderboard> {
    const inserted = await this.insert(gameId, leaderboardId, settings, actor);
    if (!inserted) throw new ConflictError(`A leaderboard with the id '${leaderboardId}' already exists.`, 'already_exists');
    return inserted;
  }

  /** The new leaderboard, its audit entry and its live state; undefined when the id is already in use. */
  private async insert(
    gameId: string,
    leaderboardId: string,
    changes: Partial<LeaderboardSettings>,
    actor: Actor,
  ): Promise<Leaderboard | undefined> {
    const given = { name: leaderboardId, ...DEFAULTS, ...changes };
    // A new board is in its first season.
    const settings = checked({ ...given, windowSeason: given.opensAt !== null || given.closesAt !== null ? 1 : null });
    const inserted = await this.deps.transact(async (client) => {
      const row = await this.deps.store.in(client).insert(gameId, leaderboardId, settings);
      if (row) {
        await this.deps.audit
          .in(client)
          .record({ gameId, actor, action: 'leaderboard.create', target: leaderboardId, details: settingsView(settings) });
      }
      return row;
    });
    if (!inserted) return undefined;
    await this.deps.recovery.prepare(inserted); // its schedule with it
    await this.deps.invalidator.leaderboardsChanged();
    return inserted;
  }

  /**
   * Final: the scores go from Redis and PostgreSQL, and queued jobs cannot bring them back.
   * Atomic: the row deletion (scores cascade), then one UNLINK of every key (one slot). Not atomic
   * together; it need not be: jobs and reports look the leaderboard up by its internal id first,
   * and a job finding it gone removes whatever a racing report left in Redis.
   */
  async delete(gameId: string, leaderboardId: string, actor: Actor): Promise<void> {
    const leaderboard = await this.deps.store.find(gameId, leaderboardId);
    if (!leaderboard) {
      throw new NotFoundError('leaderboard_not_found', `This game has no leaderboard '${leaderboardId}'.`);
    }
    await this.deps.transact(async (client) => {
      // Only the request that deleted the row records it (two racing deletes both answer 204).
      if (await this.deps.store.in(client).delete(leaderboard.internalId)) {
        await this.deps.audit.in(client).record({ gameId, actor, action: 'leaderboard.delete', target: leaderboardId });
      }
    });
    await this.deps.rotation.drop(leaderboard);
    await this.deps.schedules.set({ internalId: leaderboard.internalId, resetSchedule: null });
    await this.deps.invalidator.leaderboardsChanged();
  }

  /** Scores (hasScores), or players holding a seat in the current season (entered without a score). */
  private async hasPlayers(board: Leaderboard): Promise<boolean> {
    return (await this.hasScores(board)) || (await this.deps.rankings.seatOf(board, '')).players > 0;
  }

  /** Scores in the current season, in an ended one awaiting its archive, or in a kept archive. */
  private async hasScores(leaderboard: Leaderboard): Promise<boolean> {
    const live = await this.deps.rotation.seasons(leaderboard);
    if (live.total > 0 || live.ended.size > 0) return true;
    return (await this.deps.archives.list(leaderboard.internalId)).some((season) => season.total > 0);
  }
}

const cacheKeyOf = (gameId: string, leaderboardId: string) => `${gameId}\u0000${leaderboardId}`;

/** Settings (as the API names them) that may not change once the board has scores: they shape its entries. */
const RESHAPING = ['type', 'sort_order', 'update_strategy', 'tie_break', 'tiebreakers'];

/** Settings as the API names them: what the audit log shows. */
function settingsView(settings: LeaderboardSettings): Record<string, unknown> {
  return {
    name: settings.name,
    type: settings.type,
    sort_order: settings.sortOrder,
    client_reports: settings.clientReports,
    min_score: settings.minScore,
    max_score: settings.maxScore,
    // Rebuilt so the fields' order is always the same (compared as JSON below).
    reset_schedule: settings.resetSchedule && { cron: settings.resetSchedule.cron, timezone: settings.resetSchedule.timezone },
    keep_seasons: settings.keepSeasons,
    update_strategy: settings.updateStrategy,
    tie_break: settings.tieBreak,
    tiebreakers: settings.tiebreakers.map((column) => ({ name: column.name, sort_order: column.sortOrder })),
    opens_at: settings.opensAt?.toISOString() ?? null,
    closes_at: settings.closesAt?.toISOString() ?? null,
    open_seconds: settings.openSeconds,
    rewards: bandsView(settings.rewards),
    rewards_by: settings.rewardsBy,
    listed: settings.listed,
    join_required: settings.joinRequired,
    max_players: settings.maxPlayers,
    max_attempts: settings.maxAttempts,
    notify_top: settings.notifyTop,
    // Rebuilt in the API's names, always in the same order (compared as JSON below).
    review: settings.review && {
      above: settings.review.above,
      max_gain_per_second: settings.review.maxGainPerSecond,
      outlier_factor: settings.review.outlierFactor,
    },
    groups: settings.groups && {
      size: settings.groups.size,
      tiers: settings.groups.tiers,
      promote: settings.groups.promote,
      relegate: settings.groups.relegate,
    },
  };
}

/** Whether a league's groups change only by tiers added at the top (allowed once it has scores). */
function tiersAppended(before: LeagueSettings | null, after: LeagueSettings | null): boolean {
  if (!before || !after) return false;
  const same = before.size === after.size && before.promote === after.promote && before.relegate === after.relegate;
  return same && before.tiers.every((tier, i) => after.tiers[i] === tier);
}

/** The settings that differ, with their new values, as the API names them. */
function changedSettings(before: LeaderboardSettings, after: LeaderboardSettings): Record<string, unknown> {
  const old = settingsView(before);
  return Object.fromEntries(
    Object.entries(settingsView(after)).filter(([field, value]) => JSON.stringify(value) !== JSON.stringify(old[field])),
  );
}

/**
 * The settings, or 400 with what is wrong. `before` (an update's current settings) spares the
 * schedule's walk when neither `open_seconds` nor the schedule changes.
 */
function checked<T extends LeaderboardSettings>(settings: T, before?: LeaderboardSettings): T {
  if (settings.updateStrategy === 'sum' && settings.tiebreakers.length > 0) {
    throw new ValidationError('A sum leaderboard takes no tiebreakers: equal sums order by time with tie_break earliest.', [
      { field: 'tiebreakers', message: 'must be empty when update_strategy is sum' },
    ]);
  }
  const names = settings.tiebreakers.map((column) => column.name);
  if (new Set(names).size !== names.length) {
    throw new ValidationError('Each tiebreaker needs a name of its own.', [{ field: 'tiebreakers', message: 'names must be distinct' }]);
  }
  const tiers = settings.groups?.tiers ?? [];
  if (new Set(tiers).size !== tiers.length) {
    throw new ValidationError('Each tier needs a name of its own.', [{ field: 'groups.tiers', message: 'names must be distinct' }]);
  }
  if (settings.rewardsBy === 'group_rank' && !settings.groups) {
    throw new ValidationError('rewards_by group_rank reads the ranks within a league’s groups; this leaderboard has no groups.', [
      { field: 'rewards_by', message: 'must be rank on a leaderboard without groups' },
    ]);
  }
  const bands = bandsProblem(settings.rewards);
  if (bands)
    throw new ValidationError(`rewards[${bands.index}] ${bands.message}.`, [{ field: `rewards[${bands.index}]`, message: bands.message }]);
  if (settings.opensAt && settings.closesAt && settings.opensAt >= settings.closesAt) {
    throw new ValidationError('closes_at must be later than opens_at.', [{ field: 'closes_at', message: 'must be later than opens_at' }]);
  }
  if (settings.windowSeason !== null && settings.resetSchedule) {
    throw new ValidationError('A one-off window (opens_at, closes_at) and a reset_schedule do not go together.', [
      { field: 'reset_schedule', message: 'must be null while the board has opens_at or closes_at' },
    ]);
  }
  const problem = settings.resetSchedule && scheduleProblem(settings.resetSchedule);
  if (problem) throw new ValidationError(`reset_schedule: ${problem}.`, [{ field: 'reset_schedule', message: problem }]);
  if (settings.openSeconds !== null) {
    if (!settings.resetSchedule) {
      throw new ValidationError('open_seconds needs a reset_schedule: each season is open that long from its start.', [
        { field: 'open_seconds', message: 'needs a reset_schedule' },
      ]);
    }
    if (settings.windowSeason !== null) {
      throw new ValidationError('open_seconds and a one-off window (opens_at, closes_at) do not go together.', [
        { field: 'open_seconds', message: 'must be null while the board has opens_at or closes_at' },
      ]);
    }
    const unchanged =
      before?.openSeconds === settings.openSeconds && JSON.stringify(before.resetSchedule) === JSON.stringify(settings.resetSchedule);
    // 60 always fits: a 5-field cron runs at most once a minute.
    const gap =
      unchanged || settings.openSeconds <= 60 ? Infinity : shortestGap(settings.resetSchedule, new Date(), 366, settings.openSeconds);
    if (settings.openSeconds > gap) {
      const message = `must not exceed ${gap} s, the shortest time between the schedule's runs over the next 366 days`;
      throw new ValidationError(`open_seconds ${message}.`, [{ field: 'open_seconds', message }]);
    }
  }
  if (settings.minScore !== null && settings.maxScore !== null && settings.minScore > settings.maxScore) {
    throw new ValidationError('min_score must not be greater than max_score.', [
      { field: 'min_score', message: 'must not be greater than max_score' },
    ]);
  }
  return settings;
}
