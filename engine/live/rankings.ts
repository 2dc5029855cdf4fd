import { ConflictError, ForbiddenError, ValidationError, type AppError } from '../errors.js';
import type { ChainableCommander } from 'ioredis';
import type { RedisClient } from './redis.js';
import {
  allMemberKeys,
  leaderboardKeys,
  markPreparedKeys,
  mergeScoresKeys,
  moderateEntryKeys,
  markModeratedKeys,
  readAroundKeys,
  readBestRankKeys,
  readRangeKeys,
  reconcileClanKeys,
  reportScoreKeys,
  heldViewKeys,
  restoreHeldKeys,
  scoresOfKeys,
  setClansKeys,
  setLayoutKeys,
  reserveReportsKeys,
  releaseReportsKeys,
  seatOfKeys,
  enterSeasonKeys,
  restoreSeatsKeys,
  readGroupKeys,
  listGroupsKeys,
  type LeaderboardKeys,
} from './keys.js';
import type { LiveDeps } from './live-deps.js';
import type { LiveStateGuard } from './live-state-guard.js';
import { QUEUED_FLAG_TTL_MS, type PersistenceHooks } from './persistence-hooks.js';
import {
  entryExtras,
  type AskedSeason,
  type EntryValue,
  type PersistedScore,
  type RankedBoard,
  type RankedEntry,
  type ReportedBoard,
  type SeasonedBoard,
  type SortOrder,
  type Standings,
} from './types.js';

/** What a report carries besides its score. */
export interface ReportExtras {
  /** One number per tiebreaker column of the board; absent or empty on boards without any. */
  tiebreakers?: number[];
  /** The metadata as compact JSON; absent for none. */
  metadata?: string;
  /** The request's Idempotency-Key record (RetryRecords): its scope's digest and the request's fingerprint. */
  retry?: { digest: string; fingerprint: string; ttlMs: number };
  /** When the request arrived (ms): a board's window judges it then (default: now). */
  arrivedAt?: number;
  /** The report uses an attempt and seat its batch reserved (reserveReports). */
  reserved?: boolean;
  /** A client's report: the board's review rules judge it, and a shadow-banned player's is held (docs/review.md). */
  judged?: boolean;
}

/** How long a batch's reservation holds its attempts and seat unused (docs/competitions.md, part 3). */
export const RESERVATION_MS = 60_000;

/**
 * A report that does not fit the board's layout in Redis: its tie settings changed (on an empty
 * board) since this process read them. Nothing was applied; the caller refreshes the settings.
 */
export class LayoutChangedError extends ConflictError {
  constructor() {
    super("The leaderboard's tie settings changed while this report was on its way; send it again.");
  }
}

/** Why the report script applied nothing, by its reason code. */
const REFUSALS: Record<number, () => AppError> = {
  2: () => new ConflictError('This Idempotency-Key was used with another request.'),
  3: () => new ValidationError('The sum would not be a finite number.', [{ field: 'score', message: 'would make the sum overflow' }]),
  4: () => new ForbiddenError('This player is banned from the game; their scores are not accepted.', 'player_banned'),
  5: () => new LayoutChangedError(),
  6: () => new ForbiddenError('The leaderboard accepts no reports now: its window is not open.', 'leaderboard_closed'),
  7: () => new ForbiddenError('Players must enter this leaderboard before reporting: enter it first.', 'not_entered'),
  8: () => new ConflictError('The leaderboard is full: every seat of this season is taken.', 'leaderboard_full'),
  9: () => new ForbiddenError('This player has no attempt left in this season.', 'attempts_exhausted'),
  10: () => new ConflictError('This held score is no longer pending: it was decided, or its season ended.'),
};

/** The report script's code for a hold an earlier approval applied (its decision failed to commit). */
const APPLIED_BEFORE = 11;
/** What the moderation script's rejection answers for such a hold. */
const APPLIED_BY_APPROVAL = 2;

/** Why an entry or a withdrawal was refused, by enterSeason's reason code. */
const ENTRY_REFUSALS: Record<number, () => AppError> = {
  4: REFUSALS[4]!,
  6: () => new ConflictError('The season has closed: it takes no entries until the next reset.'),
  8: REFUSALS[8]!,
  10: () => new ConflictError('A player who has reported this season, or whose season has closed, cannot withdraw.'),
  11: () => new ConflictError('This leaderboard takes no entries: it has no join_required, max_players or max_attempts.'),
};

/** A league group as Redis holds it: visible members ranked within it, best first, and those without a score. */
export interface LiveGroup {
  group: string;
  tier: number;
  /** Members, banned ones included. */
  members: number;
  entries: (EntryValue & { rank: number })[];
  unscored: string[];
}

export interface GroupPage {
  total: number;
  groups: { group: string; tier: number; members: number }[];
}

/** A player's part in a board's season: the seats taken, whether they hold one, their attempts used. */
export interface Seat {
  players: number;
  entered: boolean;
  attemptsUsed: number;
}

/** What moderateEntry does to a player's entry on one board ('erase' also forgets their seat). */
export type Moderation = 'ban' | 'unban' | 'remove' | 'erase';

/** What the moderation script does: a moderation, or dropping a rejected held score. */
type ModerationStep = Moderation | 'reject';

/** How many first entries live streams show at most: changes beyond them are not announced (docs/events.md). */
export const LIVE_TOP = 100;

export interface ReportOutcome {
  /** The score the player holds after the report. */
  best: string;
  /** Whether the report changed the entry the player holds (its score, a tiebreaker, its time). */
  improved: boolean;
  /** Whether the change reached or left the first LIVE_TOP entries, which live streams show. */
  topChanged: boolean;
  /** The tiebreakers of the entry held after the report (empty on boards without any). */
  tiebreakers: number[];
  /** When the entry held was reached (ms), on 'earliest' boards. */
  achievedAt: number | undefined;
  rank: number;
  total: number;
  needsPersistence: boolean;
  /** The season the report counted in. */
  season: number;
  /** Reports left this season, on boards with max_attempts. */
  attemptsLeft: number | undefined;
  /** The players the report overtook within the board's notify_top, nearest first (docs/events.md part 5). */
  overtaken: Overtaken[];
  /** The held score the report made or joined (docs/review.md); the answer then shows it as if counted. */
  held?: HeldScore;
}

/** A held score as Redis keeps it (engine/live/scripts/includes/review.lua). */
export interface HeldScore {
  /** Redis's clock (µs) when the hold began: tells one hold of the player from the next. */
  heldUs: string;
  /** Bumped by every report that joins the hold. */
  version: number;
  /** Why it is held: a review rule, or the player's shadow ban (docs/review.md part 6). */
  reason: 'above' | 'gain' | 'outlier' | 'shadow';
  heldAt: Date;
  /** The entry the player sees: score, tiebreakers, and when reached on earliest boards. */
  score: string;
  tiebreakers: number[];
  achievedAt: number | undefined;
  /** On sum boards, what an approval adds. */
  amount: number | null;
  previousScore: number | null;
  /** Compact JSON, '' for none. */
  metadata: string;
}

/** Reads a held record (includes/review.lua). */
export function parseHeld(record: string): HeldScore {
  const match = /^(\d+) (\d+) ([a-z]+) (\d+) (\S+) (\S+) (\S+) (\S+) (\S+) ?(.*)$/s.exec(record);
  if (!match) throw new Error(`unreadable held record: ${record}`);
  const [, heldUs, version, reason, heldAt, score, amount, tiebreakers, at, previous, metadata] = match as unknown as string[];
  return {
    heldUs: heldUs!,
    version: Number(version),
    reason: reason as HeldScore['reason'],
    heldAt: new Date(Number(heldAt)),
    score: score!,
    tiebreakers: tiebreakers === '-' ? [] : tiebreakers!.split(',').map(Number),
    achievedAt: at === '-' ? undefined : Number(at),
    amount: amount === '-' ? null : Number(amount),
    previousScore: previous === '-' ? null : Number(previous),
    metadata: metadata ?? '',
  };
}

/** Writes a held record back (for a rebuild): the inverse of parseHeld. */
export function formatHeld(held: HeldScore): string {
  return [
    held.heldUs,
    held.version,
    held.reason,
    held.heldAt.getTime(),
    held.score,
    held.amount === null ? '-' : String(held.amount),
    held.tiebreakers.length === 0 ? '-' : held.tiebreakers.join(','),
    held.achievedAt === undefined ? '-' : String(held.achievedAt),
    held.previousScore === null ? '-' : String(held.previousScore),
    held.metadata,
  ].join(' ');
}

/** A player a report overtook, and their rank after it (one worse than before). */
export interface Overtaken {
  playerId: string;
  rank: number;
}

/** The report script's '<player> <rank> ...' (also a stored player.overtaken record's). */
export function overtakenOf(text: string): Overtaken[] {
  const parts = text === '' ? [] : text.split(' ');
  const players: Overtaken[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) players.push({ playerId: parts[i]!, rank: Number(parts[i + 1]) });
  return players;
}

/** The best rank a player's reports reached this season, and when (docs/history.md part 4). */
export interface BestRank {
  rank: number;
  at: Date;
}

/** A script's '<rank>:<ms>' ('' for none). */
function bestRankOf(text: string): BestRank | null {
  if (text === '') return null;
  const [rank, at] = text.split(':');
  return { rank: Number(rank), at: new Date(Number(at)) };
}

/**
 * The live rankings in Redis: a board's reads and writes. Every method is one Lua script call (one
 * round trip, one atomic step, one Cluster slot), run through the live-state guard; ranks are
 * competition ranks computed inside the scripts. Scripts that mark changes for persistence run after
 * the board is in the pending index (PersistenceHooks). Seasons end in engine/live/season-rotation.ts.
 */
export class Rankings {
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

  private allMemberKeys(board: { internalId: number }): string[] {
    return allMemberKeys(this.prefix, board.internalId);
  }

  /** Applies a report by the board's rule; nothing is applied when it throws (see REFUSALS). */
  async report(board: ReportedBoard, playerId: string, score: number, extras: ReportExtras = {}): Promise<ReportOutcome> {
    const touching = this.persistence.beforeMarking(board);
    if (touching) await touching;
    const { retry, arrivedAt = Date.now() } = extras;
    const keys = reportScoreKeys(this.prefix, board.internalId, playerId, retry?.digest);
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
        extras.tiebreakers?.join(',') ?? '',
        arrivedAt,
        ...ruleArgs(board),
        extras.reserved ? '1' : '',
        board.notifyTop ? String(board.notifyTop) : '',
        reviewArg(board),
        extras.judged ? '1' : '',
        '',
      );
    return this.outcomeOf(await this.guard.run(board, call));
  }

  /**
   * Applies the player's hold `heldUs` as a report made now, by the board's rule (docs/review.md
   * part 4): what the report did; undefined when an earlier approval applied it already (only its
   * decision is left to record); a 409 when it is not held any more (decided, or its season ended).
   */
  async approveHeld(board: ReportedBoard, playerId: string, heldUs: string): Promise<ReportOutcome | undefined> {
    const touching = this.persistence.beforeMarking(board);
    if (touching) await touching;
    const keys = reportScoreKeys(this.prefix, board.internalId, playerId);
    const call = () =>
      this.redis.reportScore(
        ...keys,
        playerId,
        '0',
        board.sortOrder,
        QUEUED_FLAG_TTL_MS,
        board.updateStrategy,
        '',
        '',
        0,
        '',
        Date.now(),
        ...ruleArgs(board),
        '',
        board.notifyTop ? String(board.notifyTop) : '',
        reviewArg(board),
        '',
        heldUs,
      );
    const reply = await this.guard.run(board, call);
    return reply.length === 1 && reply[0] === APPLIED_BEFORE ? undefined : this.outcomeOf(reply);
  }

  /**
   * Drops the player's held score if it is still the hold `heldUs`, with the seat it took
   * (docs/review.md part 4): whether it was there. A 409 when an approval applied it already and
   * failed to record its decision: only an approval may record that one.
   */
  async rejectHeld(board: { internalId: number }, playerId: string, heldUs: string): Promise<boolean> {
    // A freed seat is a change to persist: the board must be in the pending index first.
    const touching = this.persistence.beforeMarking(board);
    if (touching) await touching;
    const [done, needsJob] = await this.guard.run(board, () => this.moderateEntry(board, playerId, 'reject', '', false, heldUs));
    if (done === APPLIED_BY_APPROVAL) {
      throw new ConflictError(
        'This held score counts already: an approval applied it and failed to record its decision. Approve it to record it.',
      );
    }
    if (needsJob === 1) await this.persistence.requestJobs([board.internalId]);
    return done === 1;
  }

  /**
   * The player's held score as their own reads show it: ranked as if counted (docs/review.md); for a
   * shadow-banned player without one, their hidden entry (part 6).
   */
  async heldView(board: RankedBoard, playerId: string): Promise<{ entry: RankedEntry; total: number } | undefined> {
    const reply = await this.guard.run(board, () =>
      this.redis.heldView(...heldViewKeys(this.prefix, board.internalId), playerId, board.sortOrder),
    );
    if (reply.length === 0) return undefined;
    const { score, metadata, tiebreakers, achievedAt } = parseHeld(reply[0]);
    // Placed among counted entries by its rank alone (it has no position in their order).
    const entry = { id: playerId, score, metadata, tiebreakers, achievedAt, rank: reply[1], position: -1 };
    return { entry, total: reply[2] };
  }

  /** Puts persisted held scores back into a board being rebuilt; false when the season moved on. */
  async restoreHeld(board: { internalId: number }, season: number, held: { playerId: string; held: HeldScore }[]): Promise<boolean> {
    const keys = restoreHeldKeys(this.prefix, board.internalId);
    for (const chunk of chunks(held, 2000)) {
      const set = await this.redis.restoreHeld(...keys, season, ...chunk.flatMap((h) => [h.playerId, formatHeld(h.held)]));
      if (set === -1) return false;
    }
    return true;
  }

  private outcomeOf(reply: Awaited<ReturnType<RedisClient['reportScore']>>): ReportOutcome {
    if (reply.length === 1) throw REFUSALS[reply[0]]!();
    const [best, improved, rank, total, needsJob, season, tiebreakers, achievedAt, attemptsLeft, wasTop, overtaken, held] = reply;
    return {
      best,
      improved: improved === 1,
      // A replayed answer (no 10th field, or a held record) changed nothing now; a held one changes nobody's view.
      topChanged: improved === 1 && reply.length > 9 && !held && (rank <= LIVE_TOP || wasTop === 1),
      rank,
      total,
      needsPersistence: needsJob === 1,
      season,
      attemptsLeft: attemptsLeft === '' || attemptsLeft === undefined ? undefined : Number(attemptsLeft),
      overtaken: overtakenOf(overtaken ?? ''),
      ...(held && { held: parseHeld(held) }),
      ...entryExtras(tiebreakers, achievedAt),
    };
  }

  /**
   * Reserves `reports` reports of this player that arrived at `arrivedAt` (ms) on the board, judged
   * as the report script judges its window and entry rules (a banned player's report is refused by
   * the ban instead): the refusal, or whether an attempt each and a seat are now held for them
   * (boards with entry rules) until the reports use them, `releaseReports` gives them back, or
   * RESERVATION_MS pass.
   */
  async reserveReports(
    board: ReportedBoard,
    playerId: string,
    arrivedAt: number,
    reports: number,
  ): Promise<{ refusal?: AppError; reserved: boolean }> {
    const keys = reserveReportsKeys(this.prefix, board.internalId);
    const reply = await this.guard.run(board, () =>
      this.redis.reserveReports(...keys, playerId, arrivedAt, ...ruleArgs(board), reports, RESERVATION_MS),
    );
    return reply <= 1 ? { reserved: reply === 1 } : { refusal: REFUSALS[reply]!(), reserved: false };
  }

  /** Gives back reports a batch reserved on the board and will not use. */
  async releaseReports(board: { internalId: number }, playerId: string, reports: number): Promise<void> {
    await this.redis.releaseReports(...releaseReportsKeys(this.prefix, board.internalId), playerId, reports);
  }

  /** The seats taken in the board's current season, and the player's part in it. */
  async seatOf(board: { internalId: number }, playerId: string): Promise<Seat> {
    const keys = seatOfKeys(this.prefix, board.internalId);
    const [players, entered, attemptsUsed] = await this.guard.run(board, () => this.redis.seatOf(...keys, playerId));
    return { players, entered: entered === 1, attemptsUsed };
  }

  /**
   * Enters the player in the board's current season, or withdraws them (docs/competitions.md,
   * part 3); the season and the seats taken after it. Throws the refusal (ENTRY_REFUSALS).
   */
  async enter(
    board: ReportedBoard,
    playerId: string,
    action: 'enter' | 'withdraw',
    arrivedAt: number,
  ): Promise<{ season: number; players: number; entered: boolean }> {
    const touching = this.persistence.beforeMarking(board);
    if (touching) await touching;
    const keys = enterSeasonKeys(this.prefix, board.internalId);
    const reply = await this.guard.run(board, () =>
      this.redis.enterSeason(...keys, playerId, action, arrivedAt, ...ruleArgs(board), QUEUED_FLAG_TTL_MS),
    );
    if (reply[0] !== 0) throw ENTRY_REFUSALS[reply[0]!]!();
    const [, players, season, entered, needsJob] = reply as [number, number, number, number, number];
    if (needsJob === 1) await this.persistence.requestJobs([board.internalId]);
    return { season, players, entered: entered === 1 };
  }

  /**
   * Puts persisted seats back into a board being rebuilt, after its entries; false when the season
   * moved on meanwhile (the seats belong to the ended season).
   */
  async restoreSeats(board: ReportedBoard, season: number, seats: { playerId: string; seat: string }[]): Promise<boolean> {
    const keys = restoreSeatsKeys(this.prefix, board.internalId);
    const size = board.groups ? String(board.groups.size) : '';
    for (const chunk of chunks(seats, 2000)) {
      const set = await this.redis.restoreSeats(...keys, season, size, ...chunk.flatMap(({ playerId, seat }) => [playerId, seat]));
      if (set === -1) return false;
    }
    return true;
  }

  /** Whether Redis holds any of the board's league tiers (or moves due). */
  async holdsTiers(board: { internalId: number }): Promise<boolean> {
    return (await this.redis.exists(leaderboardKeys(this.prefix, board.internalId).tiers)) === 1;
  }

  /**
   * Puts persisted league tiers back into a board being rebuilt; a tier Redis already holds stays
   * (it is newer: PostgreSQL follows Redis).
   */
  async restoreTiers(board: { internalId: number }, tiers: { playerId: string; tier: number }[]): Promise<void> {
    const key = leaderboardKeys(this.prefix, board.internalId).tiers;
    const pipeline = this.redis.pipeline();
    for (const { playerId, tier } of tiers) pipeline.hsetnx(key, playerId, tier);
    await pipeline.exec();
  }

  /**
   * A league group of the current season, its visible members ranked within it (by the player's
   * group, or by its number); undefined when there is no such group.
   */
  async group(board: RankedBoard, by: { playerId: string } | { group: string }): Promise<LiveGroup | undefined> {
    const keys = readGroupKeys(this.prefix, board.internalId);
    const [mode, id] = 'playerId' in by ? ['player', by.playerId] : ['group', by.group];
    const reply = await this.guard.run(board, () => this.redis.readGroup(...keys, board.sortOrder, mode, id));
    if (reply.length === 0) return undefined;
    const [group, tier, members, flat, unscored] = reply;
    const entries: LiveGroup['entries'] = [];
    for (let i = 0; i < flat.length; i += 6) {
      const [id, score, tiebreakers, achievedAt, metadata, rank] = flat.slice(i, i + 6) as [string, string, string, string, string, number];
      entries.push({ id, score, metadata, rank, ...entryExtras(tiebreakers, achievedAt) });
    }
    return { group, tier, members, entries, unscored };
  }

  /** A page of the current season's league groups, oldest first, of one tier or all. */
  async groups(board: { internalId: number }, tier: number | undefined, offset: number, limit: number): Promise<GroupPage> {
    const keys = listGroupsKeys(this.prefix, board.internalId);
    const [total, flat] = await this.guard.run(board, () => this.redis.listGroups(...keys, tier ?? '', offset, limit));
    const groups: GroupPage['groups'] = [];
    for (let i = 0; i < flat.length; i += 3)
      groups.push({ group: String(flat[i]), tier: Number(flat[i + 1]), members: Number(flat[i + 2]) });
    return { total, groups };
  }

  /**
   * Bans, unbans or removes the player's entry on each board (one atomic script per board, each in
   * its own slot); for each board, whether it changed anything (a removal: whether there was a score).
   */
  async moderate(boards: { internalId: number }[], playerId: string, action: Moderation, shadow = false): Promise<boolean[]> {
    await this.persistence.beforeMarkingAll(boards);
    const done: boolean[] = [];
    for (const chunk of chunks(boards, 500)) {
      const replies = await Promise.all(
        chunk.map((board) => this.guard.run(board, () => this.moderateEntry(board, playerId, action, '', shadow))),
      );
      // Erasure forgets the player's league tier too (kept across seasons, outside the season's keys).
      if (action === 'erase')
        await Promise.all(chunk.map((board) => this.redis.hdel(leaderboardKeys(this.prefix, board.internalId).tiers, playerId)));
      await this.persistence.requestJobs(chunk.filter((_, i) => replies[i]![1] === 1).map((board) => board.internalId));
      // An ended season Redis still holds ranks the player as it ended: reads of it wait for its archive.
      await Promise.all(
        chunk.flatMap((board, i) =>
          (replies[i]![2] ?? []).map((season) =>
            this.redis.markModerated(...markModeratedKeys(this.prefix, board.internalId, Number(season)), season, playerId, action),
          ),
        ),
      );
      done.push(...replies.map(([changed]) => changed === 1));
    }
    return done;
  }

  /**
   * Bans the given players on a board being prepared (a new or rebuilt board takes the game's bans
   * before its scores, while its live state is not whole yet).
   */
  async banOnPreparing(board: { internalId: number }, players: { id: string; shadow: boolean }[]): Promise<void> {
    await this.persistence.beforeMarkingAll([board]);
    const replies = await Promise.all(players.map(({ id, shadow }) => this.moderateEntry(board, id, 'ban', 'preparing', shadow)));
    if (replies.some(([, needsJob]) => needsJob === 1)) await this.persistence.requestJobs([board.internalId]);
  }

  /**
   * One moderateEntry script: { changed (0|1; 2 for a rejection of a hold an approval applied),
   * needs a persistence job (0|1), the board's ended seasons awaiting their archive (after a ban,
   * unban or erasure) }; `shadow`: a ban is a shadow ban; `heldUs`: the hold a rejection
   * drops.
   */
  private moderateEntry(
    board: { internalId: number },
    playerId: string,
    action: ModerationStep,
    preparing = '',
    shadow = false,
    heldUs = '',
  ): Promise<[number, number, string[]?]> {
    const keys = moderateEntryKeys(this.prefix, board.internalId, playerId);
    return this.redis.moderateEntry(...keys, playerId, action, QUEUED_FLAG_TTL_MS, preparing, shadow ? 'shadow' : '', heldUs);
  }

  /**
   * Scores and ranks of the given members (players or clans); missing members come back undefined.
   * `withBestRank`: the first player's best rank this season too, in the same step (a record's read;
   * null on an ended season or when they have none).
   */
  async scoresOf(
    board: RankedBoard,
    view: Standings,
    ids: string[],
    season?: AskedSeason,
    withBestRank = false,
  ): Promise<{ total: number; season: number; entries: (RankedEntry | undefined)[]; bestRank?: BestRank | null } | null> {
    const keys = scoresOfKeys(this.prefix, board.internalId, view, season);
    const best = withBestRank ? 'best' : '';
    const reply = await this.guard.run(board, () => this.redis.scoresOf(...keys, board.sortOrder, season ?? '', view, best, ...ids));
    if (reply === -1) return null;
    // Each entry is built whole, in one shape, and placed where it is: built by spreads and copied
    // by one more, a list's entries cost more than the reads made of them (docs/performance.md).
    const entries = ids.map((id, i): RankedEntry | undefined => {
      const at = 3 + 5 * i;
      const score = String(reply[at]);
      if (score === '') return undefined;
      const { tiebreakers, achievedAt } = entryExtras(reply[at + 3]!, reply[at + 4]!);
      return { id, score, rank: Number(reply[at + 1]), metadata: String(reply[at + 2]), tiebreakers, achievedAt, position: 0 };
    });
    placeAmong(
      entries.filter((entry) => entry !== undefined),
      reply[2] === 'desc' ? 'desc' : 'asc',
    );
    const found = { total: Number(reply[0]), season: Number(reply[1]), entries };
    return withBestRank ? { ...found, bestRank: bestRankOf(String(reply.at(-1))) } : found;
  }

  async page(
    board: RankedBoard,
    view: Standings,
    offset: number,
    limit: number,
    season?: AskedSeason,
  ): Promise<{ total: number; entries: RankedEntry[] } | null> {
    const keys = readRangeKeys(this.prefix, board.internalId, view, season);
    const reply = await this.guard.run(board, () =>
      this.redis.readRange(...keys, board.sortOrder, offset, offset + limit - 1, season ?? '', view),
    );
    if (reply === -1) return null;
    return { total: Number(reply[0]), entries: rowsOf(reply, offset) };
  }

  /** The player's entry with up to `range` entries above and below, or undefined without a score. */
  async around(
    board: RankedBoard,
    playerId: string,
    range: number,
    season?: AskedSeason,
  ): Promise<{ total: number; entries: RankedEntry[] } | undefined | null> {
    const keys = readAroundKeys(this.prefix, board.internalId, season);
    const reply = await this.guard.run(board, () => this.redis.readAround(...keys, board.sortOrder, playerId, range, season ?? ''));
    if (reply === -1) return null;
    if (!reply) return undefined;
    return { total: Number(reply[0]), entries: rowsOf(reply, 0) };
  }

  /** The best rank the player's reports reached this season and when (docs/history.md part 4), or null. */
  async bestRankOf(board: { internalId: number }, playerId: string): Promise<BestRank | null> {
    return bestRankOf((await this.redis.readBestRank(...readBestRankKeys(this.prefix, board.internalId), playerId)) ?? '');
  }

  /** The player's current score on the board, or undefined. */
  async heldScore(board: RankedBoard, playerId: string): Promise<number | undefined> {
    const entry = (await this.scoresOf(board, 'players', [playerId]))?.entries[0];
    return entry && Number(entry.score);
  }

  /** The score a banned player holds on the board out of the ranking, or undefined. */
  async hiddenScore(board: RankedBoard, playerId: string): Promise<number | undefined> {
    const keys = scoresOfKeys(this.prefix, board.internalId, 'hidden', undefined);
    const reply = await this.guard.run(board, () => this.redis.scoresOf(...keys, board.sortOrder, '', 'hidden', '', playerId));
    const score = reply === -1 ? '' : String(reply[3]);
    return score === '' ? undefined : Number(score);
  }

  /**
   * Lays the board's entries out for its tie settings (layoutOf): done while it holds no entry
   * (live, hidden or ended), else refused. True when Redis now has that layout.
   */
  async setLayout(board: { internalId: number }, layout: string): Promise<boolean> {
    return (await this.redis.setLayout(...setLayoutKeys(this.prefix, board.internalId), layout)) === 1;
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
    await this.persistence.beforeMarkingAll([board]);
    for (const chunk of chunks(memberships, 1000)) {
      const keys = setClansKeys(
        this.prefix,
        board.internalId,
        chunk.map(([player]) => player),
      );
      const pairs = chunk.flatMap(([player, clan]) => [player, clan ?? '']);
      const call = () => this.alone((pipeline) => pipeline.setClans(String(keys.length), ...keys, preparing ? 'preparing' : '', ...pairs));
      await (preparing ? call() : this.guard.run(board, call));
    }
  }

  /** Recomputes a clan's total from its members' best scores; true when it had drifted. */
  async reconcileClan(board: { internalId: number }, clanId: string, memberIds: string[]): Promise<boolean> {
    await this.persistence.beforeMarkingAll([board]);
    const keys = reconcileClanKeys(this.prefix, board.internalId, memberIds);
    const repaired = await this.guard.run(board, () =>
      this.alone<number>((pipeline) => pipeline.reconcileClan(String(keys.length), ...keys, clanId, ...memberIds)),
    );
    return repaired === 1;
  }

  /**
   * Merges persisted scores of the given season back into the live ranking (rebuild): the better one
   * on best boards, only missing ones on latest and sum boards (Redis holds their newest values).
   * False, with nothing merged, once the board has moved on to another season.
   */
  async merge(board: ReportedBoard, season: number, scores: PersistedScore[]): Promise<boolean> {
    await this.persistence.beforeMarkingAll([board]);
    for (const chunk of chunks(scores, 2000)) {
      const keys = mergeScoresKeys(
        this.prefix,
        board.internalId,
        chunk.map(({ playerId }) => playerId),
      );
      const merged = await this.alone<number>((pipeline) =>
        pipeline.mergeScores(
          String(keys.length),
          ...keys,
          board.sortOrder,
          season,
          board.updateStrategy === 'best' ? 'best' : 'missing',
          ...chunk.flatMap(({ playerId, score, metadata, tiebreakers, achievedAt, bestRank }) => [
            playerId,
            String(score),
            metadata,
            tiebreakers.join(','),
            achievedAt === null ? '' : String(achievedAt),
            bestRank,
          ]),
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
    const marked = await this.redis.markPrepared(
      ...markPreparedKeys(this.prefix, board.internalId),
      board.season,
      board.seasonStartedAt.getTime(),
    );
    return marked === 1;
  }

  /** Whether Redis holds the board's live state (its preparation is complete). */
  async isPrepared(board: { internalId: number }): Promise<boolean> {
    return (await this.redis.exists(this.keys(board).season)) === 1;
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
}

/**
 * The entries of a page reply ({total, member, score, metadata, tiebreakers, achieved at, rank,
 * ...}); `start` stands for the first one's position (relative order is all a position tells).
 */
function rowsOf(reply: (string | number)[], start: number): RankedEntry[] {
  const entries: RankedEntry[] = [];
  for (let i = 1; i < reply.length; i += 6) {
    // One literal, no spread: see scoresOf.
    const { tiebreakers, achievedAt } = entryExtras(reply[i + 3]!, reply[i + 4]!);
    entries.push({
      id: String(reply[i]),
      score: String(reply[i + 1]),
      metadata: String(reply[i + 2]),
      tiebreakers,
      achievedAt,
      rank: Number(reply[i + 5]),
      position: start + entries.length,
    });
  }
  return entries;
}

export function chunks<T>(items: T[], size: number): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}

/**
 * Sets where each of some entries stands among them, 0 first: by rank, then by player id bytewise
 * in the ranking's own direction for equal ranks (engine/live/scripts/scoresOf-9.lua), which is the
 * ranking's order without reading anyone's position in it.
 */
function placeAmong(entries: RankedEntry[], tiesListed: SortOrder): void {
  const sign = tiesListed === 'desc' ? -1 : 1;
  entries
    .sort((a, b) => a.rank - b.rank || sign * Buffer.compare(Buffer.from(a.id), Buffer.from(b.id)))
    .forEach((entry, i) => {
      entry.position = i;
    });
}

/**
 * A board's window as the scripts take it (includes/window.lua): a one-off window's opens, closes (ms,
 * '' when open-ended) and the season it belongs to ('' for none), then the seconds each season stays
 * open from its start ('' for none).
 */
/** The board's window and entry rules, as every script that judges a report takes them (8 arguments). */
/** The board's review rules as the report script takes them (includes/review.lua): '' for none. */
function reviewArg(board: ReportedBoard): string {
  const rules = board.review;
  if (!rules) return '';
  return [rules.above, rules.maxGainPerSecond, rules.outlierFactor].map((value) => (value === null ? '' : String(value))).join('|');
}

function ruleArgs(board: ReportedBoard): string[] {
  return [...windowArgs(board), ...seatArgs(board)];
}

/** The board's entry rules as the scripts take them (includes/seats.lua): all '' on boards without any. */
function seatArgs(board: ReportedBoard): [string, string, string, string] {
  return [
    board.joinRequired ? '1' : '',
    board.maxPlayers ? String(board.maxPlayers) : '',
    board.maxAttempts ? String(board.maxAttempts) : '',
    board.groups ? String(board.groups.size) : '',
  ];
}

function windowArgs(board: ReportedBoard): [string, string, string, string] {
  const openSeconds = board.openSeconds ? String(board.openSeconds) : '';
  if (board.windowSeason === null || board.windowSeason === undefined) return ['', '', '', openSeconds];
  return [
    board.opensAt ? String(board.opensAt.getTime()) : '',
    board.closesAt ? String(board.closesAt.getTime()) : '',
    String(board.windowSeason),
    openSeconds,
  ];
}
