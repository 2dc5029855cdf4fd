import { ConflictError, ForbiddenError, UnavailableError, ValidationError, type AppError } from '../errors.js';
import type { ChainableCommander } from 'ioredis';
import type { RedisClient } from './redis.js';
import {
  allMemberKeys,
  clanScriptKeys,
  leaderboardKeys,
  memberKey,
  moderationScriptKeys,
  reportScriptKeys,
  seasonArchiveKeys,
  type LeaderboardKeys,
} from './keys.js';
import type { SortOrder, UpdateStrategy } from '../leaderboards/leaderboard-store.js';
import { QUEUED_FLAG_TTL_MS, type PersistenceMarks } from '../persistence/marks.js';
import type { PersistedScore } from '../persistence/score-store.js';

/** What the ranking core needs to know of a leaderboard. */
export interface RankedBoard extends SeasonedBoard {
  sortOrder: SortOrder;
}

/** What a report needs to know of a leaderboard. */
export interface ReportedBoard extends RankedBoard {
  updateStrategy: UpdateStrategy;
}

/** What a report carries besides its score. */
export interface ReportExtras {
  /** The metadata as compact JSON; absent for none. */
  metadata?: string;
  /** The request's Idempotency-Key record (RetryRecords): its scope's digest and the request's fingerprint. */
  retry?: { digest: string; fingerprint: string; ttlMs: number };
}

/** Why the report script applied nothing, by its reason code. */
const REFUSALS: Record<number, () => AppError> = {
  2: () => new ConflictError('This Idempotency-Key was used with another request.'),
  3: () => new ValidationError('The sum would not be a finite number.', [{ field: 'score', message: 'would make the sum overflow' }]),
  4: () => new ForbiddenError('This player is banned from the game; their scores are not accepted.', 'player_banned'),
};

/** What moderateEntry does to a player's entry on one board. */
export type Moderation = 'ban' | 'unban' | 'remove';

/** What a reset needs to know of a leaderboard. */
export interface SeasonedBoard {
  internalId: number;
  /** The current season as PostgreSQL knows it; Redis's own number wins once it has one. */
  season: number;
  /** When PostgreSQL says the current season started (Redis's own time wins once it has one). */
  seasonStartedAt: Date;
}

/**
 * Which season a read asks for: undefined for the current one. The read methods answer null when
 * Redis does not hold an asked season (it is archived in PostgreSQL, or never existed).
 */
export type AskedSeason = number | undefined;

export type ResetOutcome =
  { reset: true; season: number; endedAt: number; needsPersistence: boolean } | { reset: false; season: number; notDue: boolean };

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

/** Rebuilds a board's live state from PostgreSQL (the recovery above this layer provides it). */
export type Recover = (board: { internalId: number }) => Promise<void>;

/** What a script's LBMISSING or LBDUE error asks for (engine/live/scripts/includes/live-season.lua). */
function liveStateRequest(error: unknown): { missing: true } | { dueSeason: number } | undefined {
  if (!(error instanceof Error)) return undefined;
  const match = /^LB(MISSING|DUE)\b(?: (\d+))?/.exec(error.message);
  if (!match) return undefined;
  return match[1] === 'MISSING' ? { missing: true } : { dueSeason: Number(match[2]) };
}

/** How many times one call may find its board missing or due before it answers 503. */
const LIVE_STATE_ATTEMPTS = 3;

export type View = 'players' | 'clans';

export interface RankedEntry {
  id: string;
  /** Exactly as Redis stores it; parseFloat gives back the very double. */
  score: string;
  rank: number;
  /** The score's metadata as JSON, '' for none (always '' for clans). */
  metadata: string;
}

/** An entry's metadata as read ('' for none). */
export function parseMetadata(json: string): object | null {
  return json === '' ? null : (JSON.parse(json) as object);
}

export interface ReportOutcome {
  /** The score the player holds after the report. */
  best: string;
  /** Whether the report changed it. */
  improved: boolean;
  rank: number;
  total: number;
  needsPersistence: boolean;
  /** The season the report counted in. */
  season: number;
}

/**
 * The live rankings in Redis. Every method is one Lua script call (one round trip, one atomic step,
 * one Cluster slot); ranks are competition ranks computed inside the scripts. Scripts that mark
 * changes for persistence run after the board is in the pending index (PersistenceMarks).
 */
export class Rankings {
  private recover: Recover = () => Promise.reject(new UnavailableError('The leaderboard is being rebuilt from PostgreSQL; retry shortly.'));

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly marks: PersistenceMarks,
  ) {}

  /** How a board that lost its live state is rebuilt before a call on it is asked again. */
  recoverWith(recover: Recover): void {
    this.recover = recover;
  }

  /**
   * Runs a call on the board's live state. A board that lost it (LBMISSING) is rebuilt first, and a
   * season that reached its scheduled reset (LBDUE) is ended first; then the call is asked again.
   * The script stopped before touching anything, so asking again is safe.
   */
  private async onBoard<T>(board: { internalId: number; seasonStartedAt?: Date }, call: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        const request = liveStateRequest(error);
        if (!request) throw error;
        if (attempt >= LIVE_STATE_ATTEMPTS) throw new UnavailableError('The leaderboard is being rebuilt from PostgreSQL; retry shortly.');
        if ('missing' in request) await this.recover(board);
        else await this.reset(board, request.dueSeason, 'due');
      }
    }
  }

  private keys(board: { internalId: number }): LeaderboardKeys {
    return leaderboardKeys(this.prefix, board.internalId);
  }

  private allMemberKeys(board: { internalId: number }): string[] {
    return allMemberKeys(this.prefix, board.internalId);
  }

  /** Applies a report by the board's rule; nothing is applied when it throws (see REFUSALS). */
  async report(board: ReportedBoard, playerId: string, score: number, extras: ReportExtras = {}): Promise<ReportOutcome> {
    const touching = this.marks.beforeMarking(board);
    if (touching) await touching;
    const { retry } = extras;
    const keys = reportScriptKeys(this.prefix, board.internalId, playerId, retry?.digest);
    const call = () =>
      this.redis.reportScore(
        ...keys,
        playerId,
        String(score),
        board.sortOrder,
        QUEUED_FLAG_TTL_MS,
        board.updateStrategy,
        extras.metadata ?? '',
        retry?.fingerprint ?? '',
        retry?.ttlMs ?? 0,
      );
    const reply = await this.onBoard(board, call);
    if (reply.length === 1) throw REFUSALS[reply[0]]!();
    const [best, improved, rank, total, needsJob, season] = reply;
    return { best, improved: improved === 1, rank, total, needsPersistence: needsJob === 1, season };
  }

  /**
   * Bans, unbans or removes the player's entry on each board (one atomic script per board, each in
   * its own slot); for each board, whether it changed anything (a removal: whether there was a score).
   */
  async moderate(boards: { internalId: number }[], playerId: string, action: Moderation): Promise<boolean[]> {
    await this.marks.beforeMarkingAll(boards);
    const done: boolean[] = [];
    for (const chunk of chunks(boards, 500)) {
      const replies = await Promise.all(chunk.map((board) => this.onBoard(board, () => this.moderateEntry(board, playerId, action))));
      await this.marks.requestJobs(chunk.filter((_, i) => replies[i]![1] === 1).map((board) => board.internalId));
      done.push(...replies.map(([changed]) => changed === 1));
    }
    return done;
  }

  /**
   * Bans the given players on a board being prepared (a new or rebuilt board takes the game's bans
   * before its scores, while its live state is not whole yet).
   */
  async banOnPreparing(board: { internalId: number }, playerIds: string[]): Promise<void> {
    await this.marks.beforeMarkingAll([board]);
    const replies = await Promise.all(playerIds.map((player) => this.moderateEntry(board, player, 'ban', 'preparing')));
    if (replies.some(([, needsJob]) => needsJob === 1)) await this.marks.requestJobs([board.internalId]);
  }

  /** One moderateEntry script: { changed (0|1), needs a persistence job (0|1) }. */
  private moderateEntry(board: { internalId: number }, playerId: string, action: Moderation, preparing = ''): Promise<[number, number]> {
    const keys = moderationScriptKeys(this.prefix, board.internalId, playerId);
    return this.redis.moderateEntry(...keys, playerId, action, QUEUED_FLAG_TTL_MS, preparing);
  }

  /** Scores and ranks of the given members (players or clans); missing members come back undefined. */
  async scoresOf(
    board: RankedBoard,
    view: View,
    ids: string[],
    season?: AskedSeason,
  ): Promise<{ total: number; entries: (RankedEntry | undefined)[] } | null> {
    const keys = this.readKeys(board, view, season);
    const reply = await this.onBoard(board, () => this.redis.scoresOf(...keys, board.sortOrder, season ?? '', view, ...ids));
    if (reply === -1) return null;
    const entries = ids.map((id, i) => {
      const score = String(reply[1 + 3 * i]);
      return score === '' ? undefined : { id, score, rank: Number(reply[2 + 3 * i]), metadata: String(reply[3 + 3 * i]) };
    });
    return { total: Number(reply[0]), entries };
  }

  async page(
    board: RankedBoard,
    view: View,
    offset: number,
    limit: number,
    season?: AskedSeason,
  ): Promise<{ total: number; entries: RankedEntry[] } | null> {
    const keys = this.readKeys(board, view, season);
    const reply = await this.onBoard(board, () =>
      this.redis.readRange(...keys, board.sortOrder, offset, offset + limit - 1, season ?? '', view),
    );
    if (reply === -1) return null;
    return { total: Number(reply[0]), entries: withRanks(reply.slice(1), offset) };
  }

  /** The player's entry with up to `range` entries above and below, or undefined without a score. */
  async around(
    board: RankedBoard,
    playerId: string,
    range: number,
    season?: AskedSeason,
  ): Promise<{ total: number; entries: RankedEntry[] } | undefined | null> {
    const keys = this.readKeys(board, 'players', season);
    const reply = await this.onBoard(board, () => this.redis.readAround(...keys, board.sortOrder, playerId, range, season ?? ''));
    if (reply === -1) return null;
    if (!reply) return undefined;
    return { total: Number(reply[0]), entries: withRanks(reply.slice(2), Number(reply[1])) };
  }

  /** The player's current score on the board, or undefined. */
  async heldScore(board: RankedBoard, playerId: string): Promise<number | undefined> {
    const entry = (await this.scoresOf(board, 'players', [playerId]))?.entries[0];
    return entry && Number(entry.score);
  }

  /** The score a banned player holds on the board out of the ranking, or undefined. */
  async hiddenScore(board: RankedBoard, playerId: string): Promise<number | undefined> {
    // The read keys with the hidden scores first (every key in the board's slot, as Redis Cluster requires).
    const keys = [this.keys(board).hidden, ...this.readKeys(board, 'players', undefined).slice(1)];
    const reply = await this.onBoard(board, () => this.redis.scoresOf(...keys, board.sortOrder, '', 'hidden', playerId));
    const score = reply === -1 ? '' : String(reply[1]);
    return score === '' ? undefined : Number(score);
  }

  /** The current season, when it started, its ranked players and the ended seasons awaiting their archive. */
  async seasons(board: { internalId: number; seasonStartedAt?: Date }): Promise<LiveSeasons> {
    const k = this.keys(board);
    const started = board.seasonStartedAt?.getTime() ?? 0;
    const reply = await this.onBoard(board, () => this.redis.readSeasons(k.season, k.seasonStarted, k.scores, k.archives, started));
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
   * Sets clan memberships on a clan leaderboard, moving best scores between clan totals (`preparing`:
   * the board's preparation sets them, before its live state is whole).
   */
  async setClans(
    board: { internalId: number },
    memberships: [playerId: string, clanId: string | null][],
    preparing = false,
  ): Promise<void> {
    await this.marks.beforeMarkingAll([board]);
    for (const chunk of chunks(memberships, 1000)) {
      const keys = this.clanKeys(
        board,
        chunk.map(([player]) => player),
      );
      const pairs = chunk.flatMap(([player, clan]) => [player, clan ?? '']);
      const call = () => this.alone((pipeline) => pipeline.setClans(...keys, preparing ? 'preparing' : '', ...pairs));
      await (preparing ? call() : this.onBoard(board, call));
    }
  }

  /** Recomputes a clan's total from its members' best scores; true when it had drifted. */
  async reconcileClan(board: { internalId: number }, clanId: string, memberIds: string[]): Promise<boolean> {
    await this.marks.beforeMarkingAll([board]);
    const keys = this.clanKeys(board, memberIds);
    const repaired = await this.onBoard(board, () =>
      this.alone<number>((pipeline) => pipeline.reconcileClan(...keys, clanId, ...memberIds)),
    );
    return repaired === 1;
  }

  /**
   * Merges persisted scores of the given season back into the live ranking (rebuild): the better one
   * on best boards, only missing ones on latest and sum boards (Redis holds their newest values).
   * False, with nothing merged, once the board has moved on to another season.
   */
  async merge(board: ReportedBoard, season: number, scores: PersistedScore[]): Promise<boolean> {
    await this.marks.beforeMarkingAll([board]);
    const k = this.keys(board);
    for (const chunk of chunks(scores, 2000)) {
      const clanKeys = clanScriptKeys(k);
      const memberKeys = chunk.map(({ playerId }) => memberKey(this.prefix, board.internalId, playerId));
      const merged = await this.alone<number>((pipeline) =>
        pipeline.mergeScores(
          String(clanKeys.length + 4 + memberKeys.length),
          ...clanKeys,
          k.season,
          k.metadata,
          k.banned,
          k.hidden,
          ...memberKeys,
          board.sortOrder,
          season,
          board.updateStrategy === 'best' ? 'best' : 'missing',
          ...chunk.flatMap(({ playerId, score, metadata }) => [playerId, String(score), metadata]),
        ),
      );
      if (merged === -1) return false;
    }
    return true;
  }

  /**
   * Marks the board's live state whole, the last step of its preparation: from then on it answers
   * (engine/live/scripts/includes/live-season.lua). False when it already was.
   */
  async markPrepared(board: SeasonedBoard): Promise<boolean> {
    const k = this.keys(board);
    const marked = await this.redis.markPrepared(
      k.season,
      k.seasonStarted,
      k.scheduledResets,
      board.season,
      board.seasonStartedAt.getTime(),
    );
    return marked === 1;
  }

  /** Whether Redis holds the board's live state (its preparation is complete). */
  async isPrepared(board: { internalId: number }): Promise<boolean> {
    return (await this.redis.exists(this.keys(board).season)) === 1;
  }

  /**
   * Replaces the board's coming scheduled resets with the given instants (ms, ascending; none
   * without a schedule), or (`add`) adds them to those it keeps; its next one, or undefined.
   */
  async scheduleResets(board: { internalId: number }, instants: number[], how: 'replace' | 'add' = 'replace'): Promise<number | undefined> {
    const k = this.keys(board);
    const next = await this.redis.scheduleResets(k.season, k.seasonStarted, k.scheduledResets, how, ...instants);
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
    await this.marks.beforeMarking(board);
    const k = this.keys(board);
    const ended = seasonArchiveKeys(this.prefix, board.internalId, expected);
    const [status, season, needsJob, endedAt] = await this.onBoard(board, () =>
      this.redis.resetSeason(
        ...clanScriptKeys(k),
        k.dirty,
        k.queued,
        k.season,
        k.seasonStarted,
        k.archives,
        k.scheduledResets,
        k.metadata,
        k.versions,
        k.hidden,
        ended.scores,
        ended.clans,
        ended.metadata,
        ended.hidden,
        expected,
        kind,
        board.seasonStartedAt?.getTime() ?? 0,
        QUEUED_FLAG_TTL_MS,
      ),
    );
    if (status !== 1) return { reset: false, season: season!, notDue: status === 2 };
    if (needsJob === 1) await this.marks.requestJobs([board.internalId]);
    return { reset: true, season: season!, endedAt: endedAt!, needsPersistence: needsJob === 1 };
  }

  /**
   * Ends the current season if its scheduled reset has come (the worker's look at boards nobody
   * touches). Not reset when it was not due, or when another process ended it first.
   */
  async endIfDue(board: { internalId: number; seasonStartedAt?: Date }): Promise<ResetOutcome> {
    let value = await this.redis.get(this.keys(board).season);
    if (value === null) {
      await this.recover(board);
      value = (await this.redis.get(this.keys(board).season)) ?? '';
    }
    return this.reset(board, Number.parseInt(value, 10), 'due');
  }

  /** Ranked players of an ended season still held in Redis. */
  endedCount(board: { internalId: number }, season: number): Promise<number> {
    return this.redis.zcard(seasonArchiveKeys(this.prefix, board.internalId, season).scores);
  }

  /** Seasons reset in Redis and not yet archived: season -> started and ended (ms). */
  async pendingArchives(board: { internalId: number }): Promise<Map<number, { startedAt: number; endedAt: number }>> {
    const pending = new Map<number, { startedAt: number; endedAt: number }>();
    for (const [season, times] of Object.entries(await this.redis.hgetall(this.keys(board).archives))) {
      const [startedAt, endedAt] = times.split(':').map(Number);
      pending.set(Number(season), { startedAt: startedAt!, endedAt: endedAt! });
    }
    return pending;
  }

  /**
   * An ended season's players, a page at a time: [id, score, metadata ('' for none)]. The ranking
   * comes in ranking order, then the players banned when the season ended (its hidden scores), whom
   * the archive ranks among everyone and stores hidden.
   */
  async *endedPlayers(board: { internalId: number; sortOrder: SortOrder }, season: number): AsyncGenerator<[string, number, string][]> {
    const ended = seasonArchiveKeys(this.prefix, board.internalId, season);
    const withMetadata = async (page: [string, number][]) => {
      const metadata = await this.redis.hmget(ended.metadata, ...page.map(([id]) => id));
      return page.map(([id, score], i): [string, number, string] => [id, score, metadata[i] ?? '']);
    };
    for await (const page of this.endedPages(board, ended.scores)) yield withMetadata(page);
    // HSCAN may return a field twice; the archive takes each player once.
    const seen = new Set<string>();
    let cursor = '0';
    do {
      const [next, flat] = await this.redis.hscan(ended.hidden, cursor, 'COUNT', 10_000);
      const page: [string, number][] = [];
      for (let i = 0; i < flat.length; i += 2) {
        if (seen.has(flat[i]!)) continue;
        seen.add(flat[i]!);
        page.push([flat[i]!, Number(flat[i + 1])]);
      }
      if (page.length > 0) yield withMetadata(page);
      cursor = next;
    } while (cursor !== '0');
  }

  /** An ended season's clans, a page at a time in ranking order: [id, total]. */
  endedClans(board: { internalId: number; sortOrder: SortOrder }, season: number): AsyncGenerator<[string, number][]> {
    return this.endedPages(board, seasonArchiveKeys(this.prefix, board.internalId, season).clans);
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

  /** Once PostgreSQL holds an ended season: its Redis keys go. */
  async dropEnded(board: { internalId: number }, season: number): Promise<void> {
    const ended = seasonArchiveKeys(this.prefix, board.internalId, season);
    await this.redis.unlink(ended.scores, ended.clans, ended.metadata, ended.hidden);
    await this.redis.hdel(this.keys(board).archives, String(season));
  }

  /** Removes every key of a leaderboard, ended seasons' included (they share one slot). */
  async drop(board: { internalId: number }): Promise<void> {
    const ended = [...(await this.pendingArchives(board)).keys()].flatMap((season) =>
      Object.values(seasonArchiveKeys(this.prefix, board.internalId, season)),
    );
    await this.redis.unlink(...Object.values(this.keys(board)), ...ended, ...this.allMemberKeys(board));
  }

  /** Every clan with a total on a clan leaderboard. */
  rankedClans(board: { internalId: number }): Promise<string[]> {
    return this.redis.zrange(this.keys(board).clans, '0', '-1');
  }

  /** The live clan memberships of a clan leaderboard, player -> clan id. */
  async memberships(board: { internalId: number }): Promise<Map<string, string>> {
    const clanIds = await this.redis.hgetall(this.keys(board).clanIds);
    const memberships = new Map<string, string>();
    for (const keys of chunks(this.allMemberKeys(board), 512)) {
      for (const hash of await Promise.all(keys.map((key) => this.redis.hgetall(key)))) {
        for (const [player, number] of Object.entries(hash)) memberships.set(player, clanIds[number]!);
      }
    }
    return memberships;
  }

  /**
   * Runs one script whose key count leads its arguments (setClans, reconcileClan, mergeScores) in a
   * pipeline of its own. On Cluster, ioredis's auto-pipelining groups a command by its first argument
   * taken as a key, here the count: batched with commands of another node, the whole batch failed.
   * An explicit pipeline is routed by the script's real keys.
   */
  private async alone<T = unknown>(script: (pipeline: ChainableCommander) => ChainableCommander): Promise<T> {
    const [[error, result]] = (await script(this.redis.pipeline()).exec()) as [Error | null, unknown][] as [[Error | null, T]];
    if (error) throw error;
    return result;
  }

  /** Key count and keys of the scripts that read or move memberships of the given players. */
  private clanKeys(board: { internalId: number }, playerIds: string[]): string[] {
    const k = this.keys(board);
    const keys = [...clanScriptKeys(k), k.season];
    const memberKeys = playerIds.map((player) => memberKey(this.prefix, board.internalId, player));
    return [String(keys.length + memberKeys.length), ...keys, ...memberKeys];
  }

  /**
   * The first keys of a read script (includes/season-ranking): live ranking, season, the asked
   * season's ended ranking, archives, live metadata, the asked season's ended metadata.
   */
  private readKeys(board: { internalId: number }, view: View, season: AskedSeason): string[] {
    const k = this.keys(board);
    const ended = seasonArchiveKeys(this.prefix, board.internalId, season ?? 0);
    const rankings = view === 'clans' ? [k.clans, k.season, ended.clans] : [k.scores, k.season, ended.scores];
    return [...rankings, k.archives, k.metadata, ended.metadata];
  }
}

/** Turns a page reply ({firstRank, member, score, metadata, ...}) into entries with competition ranks. */
function withRanks(reply: (string | number)[], startPosition: number): RankedEntry[] {
  const entries: RankedEntry[] = [];
  let rank = Number(reply[0]);
  for (let i = 1; i < reply.length; i += 3) {
    const score = String(reply[i + 1]);
    const previous = entries[entries.length - 1];
    if (previous && previous.score !== score) rank = startPosition + entries.length + 1;
    entries.push({ id: String(reply[i]), score, rank, metadata: String(reply[i + 2]) });
  }
  return entries;
}

export function chunks<T>(items: T[], size: number): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}
