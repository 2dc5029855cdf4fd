import type { RedisClient } from './redis.js';
import {
  allBestRankKeys,
  allMemberKeys,
  applyGroupMovesKeys,
  endedGroupKeys,
  endedSeasonKeys,
  leaderboardKeys,
  liveChannel,
  readRangeKeys,
  readSeasonsKeys,
  resetSeasonKeys,
  scanHiddenKeys,
  scheduleResetsKeys,
  type LeaderboardKeys,
} from './keys.js';
import type { LiveDeps } from './live-deps.js';
import type { LiveStateGuard } from './live-state-guard.js';
import { QUEUED_FLAG_TTL_MS, type PersistenceHooks } from './persistence-hooks.js';
import { entryExtras, type EntryValue, type SortOrder } from './types.js';

export type ResetOutcome =
  { reset: true; season: number; endedAt: number; needsPersistence: boolean } | { reset: false; season: number; notDue: boolean };

/** An ended season's league group as it stood at the end (banned members left out). */
export interface EndedGroup {
  tier: number;
  /** Its moves are applied. */
  moved: boolean;
  ranked: { playerId: string; rank: number }[];
  unscored: string[];
}

/** A league group member's result at the season's end: their rank within the group (null unscored) and tier after. */
export interface GroupResult {
  playerId: string;
  group: number;
  tier: number;
  groupRank: number | null;
  movedTo: number;
}

/** Which reset: one asked for now, or only the board's scheduled reset once its instant has come. */
export type ResetKind = 'now' | 'due';

/** What Redis holds of a board's seasons: the current one and the ended ones awaiting their archive. */
export interface LiveSeasons {
  season: number;
  startedAt: Date;
  /** Ranked players of the current season. */
  total: number;
  /** Ended seasons not yet archived: season -> started and ended (ms). */
  ended: Map<number, { startedAt: number; endedAt: number }>;
}

/**
 * Seasons in Redis: a board's current season and its scheduled resets, the reset that ends a
 * season (one script: the rankings move aside under the ended season's keys), and the ended seasons
 * kept until the worker has archived them to PostgreSQL, then dropped.
 */
export class SeasonRotation {
  private readonly redis: RedisClient;
  private readonly prefix: string;
  private readonly persistence: PersistenceHooks;
  private readonly guard: LiveStateGuard;

  constructor({ redis, prefix, persistence, guard }: LiveDeps) {
    this.redis = redis;
    this.prefix = prefix;
    this.persistence = persistence;
    this.guard = guard;
  }

  private keys(board: { internalId: number }): LeaderboardKeys {
    return leaderboardKeys(this.prefix, board.internalId);
  }

  /** The current season, when it started, its ranked players and the ended seasons awaiting their archive. */
  async seasons(board: { internalId: number; seasonStartedAt?: Date }): Promise<LiveSeasons> {
    const keys = readSeasonsKeys(this.prefix, board.internalId);
    const started = board.seasonStartedAt?.getTime() ?? 0;
    const reply = await this.guard.run(board, () => this.redis.readSeasons(...keys, started));
    const ended = new Map<number, { startedAt: number; endedAt: number }>();
    for (let i = 3; i < reply.length; i += 2) {
      const [startedAt, endedAt] = String(reply[i + 1])
        .split(':')
        .map(Number);
      ended.set(Number(reply[i]), { startedAt: startedAt!, endedAt: endedAt! });
    }
    return { season: Number(reply[0]), startedAt: new Date(Number(reply[1])), total: Number(reply[2]), ended };
  }

  /**
   * Replaces the board's coming scheduled resets with the given instants (ms, ascending; none
   * without a schedule), or (`add`) adds them to those it keeps; its next one, or undefined.
   */
  async scheduleResets(board: { internalId: number }, instants: number[], how: 'replace' | 'add' = 'replace'): Promise<number | undefined> {
    const next = await this.redis.scheduleResets(...scheduleResetsKeys(this.prefix, board.internalId), how, ...instants);
    return next === null ? undefined : next;
  }

  /** How many coming scheduled resets the board keeps, and the last of them (ms; 0 for none). */
  async scheduledResets(board: { internalId: number }): Promise<{ count: number; last: number }> {
    const key = this.keys(board).scheduledResets;
    const [count, last] = await Promise.all([this.redis.zcard(key), this.redis.zrange(key, '-1', '-1')]);
    return { count, last: Number(last[0] ?? 0) };
  }

  /**
   * Ends the season `expected` (the current one, as the caller believes) in one atomic step: now,
   * or (`due`) only when its scheduled reset has come, at the scheduled instant; its archive is
   * asked of the worker (which also tells PostgreSQL of a reset nobody told it of).
   */
  async reset(board: { internalId: number; seasonStartedAt?: Date }, expected: number, kind: ResetKind = 'now'): Promise<ResetOutcome> {
    await this.persistence.beforeMarking(board);
    const keys = resetSeasonKeys(this.prefix, board.internalId, expected);
    const [status, season, needsJob, endedAt] = await this.guard.run(board, () =>
      this.redis.resetSeason(...keys, expected, kind, board.seasonStartedAt?.getTime() ?? 0, QUEUED_FLAG_TTL_MS),
    );
    if (status !== 1) return { reset: false, season: season!, notDue: status === 2 };
    // Live streams show the new, empty season (docs/events.md part 6); a lost message only delays that.
    this.redis.publish(liveChannel(this.prefix, board.internalId), '1').catch(() => undefined);
    if (needsJob === 1) await this.persistence.requestJobs([board.internalId]);
    return { reset: true, season: season!, endedAt: endedAt!, needsPersistence: needsJob === 1 };
  }

  /**
   * Ends the current season if its scheduled reset has come (the worker's look at boards nobody
   * touches). Not reset when it was not due, or when another process ended it first.
   */
  async endIfDue(board: { internalId: number; seasonStartedAt?: Date }): Promise<ResetOutcome> {
    let value = await this.redis.get(this.keys(board).season);
    if (value === null) {
      await this.guard.recover(board);
      value = (await this.redis.get(this.keys(board).season)) ?? '';
    }
    return this.reset(board, Number.parseInt(value, 10), 'due');
  }

  /** Ranked players of an ended season still held in Redis. */
  endedCount(board: { internalId: number }, season: number): Promise<number> {
    return this.redis.zcard(endedSeasonKeys(this.prefix, board.internalId, season).scores);
  }

  /** Seasons reset in Redis and not yet archived: season -> started and ended (ms). */
  async endedSeasons(board: { internalId: number }): Promise<Map<number, { startedAt: number; endedAt: number }>> {
    const pending = new Map<number, { startedAt: number; endedAt: number }>();
    for (const [season, times] of Object.entries(await this.redis.hgetall(this.keys(board).endedSeasons))) {
      const [startedAt, endedAt] = times.split(':').map(Number);
      pending.set(Number(season), { startedAt: startedAt!, endedAt: endedAt! });
    }
    return pending;
  }

  /**
   * An ended season's players, a page at a time. The ranking comes in ranking order (the page script
   * decodes keyed boards' entries), then the players banned when the season ended (its hidden
   * entries), whom the archive ranks among everyone and stores hidden.
   */
  async *endedPlayers(
    board: { internalId: number; sortOrder: SortOrder },
    season: number,
    pageSize = 10_000,
  ): AsyncGenerator<EntryValue[]> {
    const keys = readRangeKeys(this.prefix, board.internalId, 'players', season);
    for (let start = 0; ; start += pageSize) {
      const reply = await this.guard.run(board, () =>
        this.redis.readRange(...keys, board.sortOrder, start, start + pageSize - 1, season, 'players', 'archive'),
      );
      if (reply === -1) return; // archived meanwhile
      const page: EntryValue[] = [];
      for (let i = 1; i < reply.length; i += 6) {
        page.push({
          id: String(reply[i]),
          score: String(reply[i + 1]),
          metadata: String(reply[i + 2]),
          ...entryExtras(reply[i + 3]!, reply[i + 4]!),
        });
      }
      if (page.length > 0) yield page;
      if (page.length < pageSize) break;
    }
    // HSCAN may return a field twice; the archive takes each player once.
    const seen = new Set<string>();
    const hiddenKeys = scanHiddenKeys(this.prefix, board.internalId, season);
    let cursor = '0';
    do {
      const reply = await this.redis.scanHidden(...hiddenKeys, cursor, pageSize);
      const page: EntryValue[] = [];
      for (let i = 1; i < reply.length; i += 5) {
        const id = String(reply[i]);
        if (seen.has(id)) continue;
        seen.add(id);
        page.push({ id, score: String(reply[i + 1]), metadata: String(reply[i + 2]), ...entryExtras(reply[i + 3]!, reply[i + 4]!) });
      }
      if (page.length > 0) yield page;
      cursor = String(reply[0]);
    } while (cursor !== '0');
  }

  /** An ended season's clans, a page at a time in ranking order: [id, total]. */
  endedClans(board: { internalId: number; sortOrder: SortOrder }, season: number): AsyncGenerator<[string, number][]> {
    return this.endedPages(board, endedSeasonKeys(this.prefix, board.internalId, season).clans);
  }

  private async *endedPages(board: { sortOrder: SortOrder }, key: string, pageSize = 10_000): AsyncGenerator<[string, number][]> {
    for (let start = 0; ; start += pageSize) {
      const flat =
        board.sortOrder === 'asc'
          ? await this.redis.zrange(key, String(start), String(start + pageSize - 1), 'WITHSCORES')
          : await this.redis.zrevrange(key, start, start + pageSize - 1, 'WITHSCORES');
      const page: [string, number][] = [];
      for (let i = 0; i < flat.length; i += 2) page.push([flat[i]!, Number(flat[i + 1])]);
      if (page.length > 0) yield page;
      if (page.length < pageSize) return;
    }
  }

  /** How many league groups the ended season had (0 off leagues, or once archived). */
  async endedGroupCount(board: { internalId: number }, season: number): Promise<number> {
    return Number((await this.redis.hget(endedSeasonKeys(this.prefix, board.internalId, season).groups, 'n')) ?? 0);
  }

  /**
   * One league group of an ended season as it stood at the end, banned members left out: its tier,
   * whether its moves are applied, its ranked members best first and those without a score.
   */
  async endedGroup(board: { internalId: number; sortOrder: SortOrder }, season: number, group: number): Promise<EndedGroup | undefined> {
    const reply = await this.redis.endedGroup(...endedGroupKeys(this.prefix, board.internalId, season), board.sortOrder, group);
    if (reply.length === 0) return undefined;
    const [tier, moved, flat, unscored] = reply;
    const ranked: EndedGroup['ranked'] = [];
    for (let i = 0; i < flat.length; i += 2) ranked.push({ playerId: String(flat[i]), rank: Number(flat[i + 1]) });
    return { tier, moved: moved === 1, ranked, unscored };
  }

  /**
   * Applies one group's moves (new tiers, absolute) with its result, unless the group has moved
   * already; false then. Exactly once per group, whoever runs it.
   */
  async applyGroupMoves(board: { internalId: number }, season: number, group: number, result: GroupResult[]): Promise<boolean> {
    const text = result.map((row) => `${row.playerId}:${row.groupRank ?? ''}:${row.movedTo}`).join(' ');
    const moves = result.filter((row) => row.movedTo !== row.tier).flatMap((row) => [row.playerId, row.movedTo]);
    return (
      (await this.redis.applyGroupMoves(...applyGroupMovesKeys(this.prefix, board.internalId, season), season, group, text, ...moves)) === 1
    );
  }

  /** Lets the next season's players join groups once every group of `season` has moved; false while some has not. */
  async finishMoves(board: { internalId: number }, season: number): Promise<boolean> {
    return (await this.redis.applyGroupMoves(...applyGroupMovesKeys(this.prefix, board.internalId, season), season, '', '')) === 1;
  }

  /** An ended season's applied group results, a page of groups at a time (for its archive). */
  async *endedGroupResults(board: { internalId: number }, season: number, pageSize = 500): AsyncGenerator<GroupResult[]> {
    const key = endedSeasonKeys(this.prefix, board.internalId, season).groups;
    const count = await this.endedGroupCount(board, season);
    for (let first = 1; first <= count; first += pageSize) {
      const numbers = Array.from({ length: Math.min(pageSize, count - first + 1) }, (_, i) => first + i);
      const values = await this.redis.hmget(key, ...numbers.flatMap((group) => [String(group), `r${group}`]));
      const page: GroupResult[] = [];
      numbers.forEach((group, i) => {
        const tier = Number.parseInt(values[2 * i] ?? '0', 10);
        for (const row of (values[2 * i + 1] ?? '').split(' ')) {
          if (row === '') continue;
          const [playerId, rank, movedTo] = row.split(':');
          page.push({ playerId: playerId!, group, tier, groupRank: rank === '' ? null : Number(rank), movedTo: Number(movedTo) });
        }
      });
      if (page.length > 0) yield page;
    }
  }

  /** Once PostgreSQL holds an ended season: its Redis keys go. */
  async dropEnded(board: { internalId: number }, season: number): Promise<void> {
    const ended = endedSeasonKeys(this.prefix, board.internalId, season);
    await this.redis.unlink(ended.scores, ended.clans, ended.metadata, ended.hidden, ended.sortKeys, ended.groups);
    await this.redis.hdel(this.keys(board).endedSeasons, String(season));
  }

  /** Removes every key of a leaderboard, ended seasons' included (they share one slot). */
  async drop(board: { internalId: number }): Promise<void> {
    const ended = [...(await this.endedSeasons(board)).keys()].flatMap((season) =>
      Object.values(endedSeasonKeys(this.prefix, board.internalId, season)),
    );
    const spread = [...this.allMemberKeys(board), ...allBestRankKeys(this.prefix, board.internalId)];
    await this.redis.unlink(...Object.values(this.keys(board)), ...ended, ...spread);
  }

  private allMemberKeys(board: { internalId: number }): string[] {
    return allMemberKeys(this.prefix, board.internalId);
  }
}
