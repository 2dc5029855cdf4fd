import { ConflictError, ForbiddenError, NotFoundError, ValidationError, type ErrorDetail } from '../errors.js';
import type { Leaderboard } from '../leaderboards/leaderboard-store.js';
import type { LeaderboardService } from '../leaderboards/leaderboard-service.js';
import type { PlayerService, PlayerProfile } from '../players/player-service.js';
import type { PersistenceMarks } from '../persistence/marks.js';
import { LayoutChangedError, type BestRank, type Rankings, type ReportOutcome } from '../live/rankings.js';
import { tieFieldsOf, tiebreakersProblem, type TieFields } from '../leaderboards/ties.js';
import { parseMetadata, type AskedSeason } from '../live/types.js';
import type { RetryRecord, RetryRecords } from './retry-records.js';
import type { ReportCounter } from '../activity/report-counter.js';
import type { SeasonEntry, SeasonReads } from '../reads/season-reads.js';
import type { RecordReward, RewardReads } from '../competitions/reward-reads.js';
import { hasEntryRules } from '../competitions/entry-rules.js';
import type { GroupPlace, LeagueReads } from '../competitions/league-reads.js';
import type { LiveChanges } from '../events/live-feed.js';
import type { HeldScores } from '../reviews/held-scores.js';

/** One reported score, its tiebreakers (one per column of the board) and the metadata to keep with it. */
export interface Report {
  score: number;
  tiebreakers?: number[] | null | undefined;
  metadata?: object | null | undefined;
}

/** A request's Idempotency-Key and the request as it arrived (parsed JSON): retries must match it. */
export interface Retry {
  key: string;
  request: unknown;
}

export interface ReportResult extends TieFields {
  leaderboardId: string;
  submittedScore: number;
  /** The score the player holds after the report (whatever the board's rule). */
  bestScore: number;
  improved: boolean;
  rank: number;
  total: number;
  /** The season the report counted in. */
  season: number;
  /** Reports left this season, on boards with max_attempts. */
  attemptsLeft?: number;
}

export interface PlayerRecord extends TieFields {
  leaderboard: Leaderboard;
  player: PlayerProfile;
  score: number;
  rank: number;
  total: number;
  metadata: object | null;
  /** Once the season read has closed or been archived: its reward and when it was claimed. */
  reward?: RecordReward;
  /** On a league board, in the current season: the player's tier, group and rank within it. */
  place?: GroupPlace;
  /** The best rank the player's reports reached this season, and when (null in an archived season). */
  bestRank: BestRank | null;
}

/** Score reports and player records: validation against the leaderboard, then one script per board. */
export class ScoreService {
  constructor(
    private readonly deps: {
      leaderboards: LeaderboardService;
      players: PlayerService;
      rankings: Rankings;
      seasons: SeasonReads;
      marks: PersistenceMarks;
      retries: RetryRecords;
      /** Reports per minute for the dashboard: counted in memory, flushed to Redis in the background. */
      counter: ReportCounter;
      rewards: RewardReads;
      leagues: LeagueReads;
      /** Live streams are told when a report moved a board's first entries. */
      live: LiveChanges;
      /** Held scores are in PostgreSQL before their report is answered (docs/review.md). */
      held: HeldScores;
    },
  ) {}

  /** A game client's report: the leaderboard must accept client reports. */
  async reportFromClient(gameId: string, playerId: string, leaderboardId: string, report: Report, retry?: Retry): Promise<ReportResult> {
    const arrivedAt = Date.now();
    const leaderboard = await this.deps.leaderboards.get(gameId, leaderboardId);
    if (!leaderboard.clientReports) {
      throw new ForbiddenError(`Leaderboard '${leaderboardId}' accepts scores from the game server only.`, 'client_reports_disabled');
    }
    const problem = boundsProblem(leaderboard, report.score);
    if (problem) throw new ValidationError(`The score ${problem}.`, [{ field: 'score', message: problem }]);
    const columns = tiebreakersProblem(leaderboard, report.tiebreakers);
    if (columns) throw new ValidationError(`The tiebreakers ${columns}.`, [{ field: 'tiebreakers', message: columns }]);
    const record =
      retry && (await this.deps.retries.claim(['client', gameId, playerId], retry.key, [leaderboardId, retry.request], arrivedAt));
    // An erased player is refused as a barred one here; the API tells them apart (api/routes/mount.ts).
    const [result] = await this.apply(playerId, [[leaderboard, report]], record, record?.arrivedAt ?? arrivedAt, () => 'score', {
      judged: true,
    });
    this.deps.counter.count(gameId);
    return result!;
  }

  /**
   * A game server's batch. Everything is checked before anything is written, so an invalid pair
   * applies nothing. The writes then go leaderboard by leaderboard (each its own Cluster slot). A batch
   * cut short is completed by the client's retry: with an Idempotency-Key each board applies its pair
   * exactly once (its script remembers its answer); without one, a best score never drops, so
   * resending is harmless on best boards.
   */
  async reportFromServer(
    gameId: string,
    playerId: string,
    pairs: [leaderboardId: string, report: Report][],
    retry?: Retry,
  ): Promise<ReportResult[]> {
    const arrivedAt = Date.now();
    await this.deps.players.get(gameId, playerId);
    const found = await Promise.all(
      pairs.map(([id]) =>
        this.deps.leaderboards.get(gameId, id).catch((error: unknown) => {
          if (error instanceof NotFoundError) return undefined;
          throw error;
        }),
      ),
    );
    const details: ErrorDetail[] = [];
    const checked: [Leaderboard, Report][] = [];
    pairs.forEach(([id, report], i) => {
      const leaderboard = found[i];
      if (!leaderboard) {
        details.push({ field: `leaderboard_ids[${i}]`, message: `no leaderboard '${id}' in this game` });
        return;
      }
      const problem = boundsProblem(leaderboard, report.score);
      if (problem) details.push({ field: `scores[${i}]`, message: problem });
      const columns = tiebreakersProblem(leaderboard, report.tiebreakers);
      if (columns) details.push({ field: `tiebreakers[${i}]`, message: columns });
      checked.push([leaderboard, report]);
    });
    if (details.length === 0 && checked.length > 1) details.push(...(await this.sumOverflows(playerId, checked)));
    if (details.length > 0) {
      throw new ValidationError('The batch was not applied: fix the listed pairs and send it again.', details);
    }
    const record = retry && (await this.deps.retries.claim(['server', gameId], retry.key, retry.request, arrivedAt));
    // A retry is judged at its first arrival, so a batch cut short is completed as it was accepted.
    const judgedAt = record?.arrivedAt ?? arrivedAt;
    const reserved = record?.replay ? new Set<number>() : await this.reserveBatch(playerId, checked, judgedAt, record);
    const results = await this.apply(playerId, checked, record, judgedAt, (i) => `scores[${i}]`, { reserved });
    this.deps.counter.count(gameId, results.length);
    return results;
  }

  /**
   * Reserves the batch's reports on every board with a window or entry rules before any board is
   * written (docs/competitions.md, parts 2 and 3): each board judges its pairs in Redis, at the
   * request's arrival, as its report script will, and holds an attempt for each and a seat for the
   * player, so no report or entry racing the batch takes them. When a board refuses, the others'
   * reservations are given back and the whole batch is refused: the error is the first refusal in
   * the API's order (window, entry, seat, attempts), the details name every refused pair. Boards
   * without either cost nothing. The boards holding reservations for the batch's reports.
   */
  private async reserveBatch(
    playerId: string,
    pairs: [Leaderboard, Report][],
    arrivedAt: number,
    retry: RetryRecord | undefined,
  ): Promise<Set<number>> {
    const boards = new Map<number, { board: Leaderboard; reports: number }>();
    for (const [board] of pairs) {
      if (board.windowSeason === null && board.openSeconds === null && !hasEntryRules(board)) continue;
      boards.set(board.internalId, { board, reports: (boards.get(board.internalId)?.reports ?? 0) + 1 });
    }
    const asked = [...boards.values()];
    const answers = await Promise.allSettled(
      asked.map(({ board, reports }) => this.deps.rankings.reserveReports(board, playerId, arrivedAt, reports)),
    );
    const reserved = new Set(
      asked.flatMap(({ board }, i) => (answers[i]!.status === 'fulfilled' && answers[i]!.value.reserved ? [board.internalId] : [])),
    );
    const failed = answers.find((answer): answer is PromiseRejectedResult => answer.status === 'rejected');
    const refusalOf = new Map(
      asked.flatMap(({ board }, i) => {
        const answer = answers[i]!;
        return answer.status === 'fulfilled' && answer.value.refusal ? [[board.internalId, answer.value.refusal] as const] : [];
      }),
    );
    if (!failed && refusalOf.size === 0) return reserved;
    await Promise.all(
      asked
        .filter(({ board }) => reserved.has(board.internalId))
        .map(({ board, reports }) => this.deps.rankings.releaseReports(board, playerId, reports)),
    );
    if (retry) await this.deps.retries.release(retry);
    if (failed) throw failed.reason;
    const refused = pairs.flatMap(([board], i) => {
      const error = refusalOf.get(board.internalId);
      return error ? [{ error, i }] : [];
    });
    const first = refused.map(({ error }) => error).sort((a, b) => REFUSAL_ORDER.indexOf(a.code) - REFUSAL_ORDER.indexOf(b.code))[0]!;
    const details = refused.map(({ error, i }) => ({
      field: `leaderboard_ids[${i}]`,
      message: PAIR_REFUSALS[error.code]!(pairs[i]![0].id),
    }));
    const message = `The batch was not applied: ${first.message}`;
    if (first.code === 'leaderboard_full') throw new ConflictError(message, 'leaderboard_full', details);
    throw new ForbiddenError(message, first.code as 'leaderboard_closed' | 'not_entered' | 'attempts_exhausted', details);
  }

  /**
   * The pairs of a batch whose sum would overflow, found before any board is written (each board's
   * script checks again, atomically, but a batch spans boards and must stay all or nothing).
   */
  private async sumOverflows(playerId: string, pairs: [Leaderboard, Report][]): Promise<ErrorDetail[]> {
    const held = await Promise.all(
      pairs.map(([board]) => (board.updateStrategy === 'sum' ? this.deps.rankings.heldScore(board, playerId) : undefined)),
    );
    return pairs.flatMap(([board, { score }], i) => {
      if (board.updateStrategy !== 'sum' || Number.isFinite((held[i] ?? 0) + score)) return [];
      return [{ field: `scores[${i}]`, message: `would make the sum on leaderboard '${board.id}' overflow` }];
    });
  }

  /**
   * A player's record. `own`: the player reads it themselves (with their token), so a held score
   * of theirs shows as if counted (docs/review.md).
   */
  async record(gameId: string, leaderboardId: string, playerId: string, season?: AskedSeason, own = false): Promise<PlayerRecord> {
    const [leaderboard, player] = await Promise.all([
      this.deps.leaderboards.get(gameId, leaderboardId),
      this.deps.players.get(gameId, playerId),
    ]);
    // The best rank is read in the entry's step (so a board rebuilt by this read has it back too);
    // only the current season's record carries one.
    const heldView = own && season === undefined && (leaderboard.review !== null || player.banKind === 'shadow');
    const [
      {
        total: counted,
        entries: [countedEntry],
        season: read,
        bestRank = null,
      },
      held,
    ] = await Promise.all([
      this.deps.seasons.scoresOf(leaderboard, 'players', [playerId], season, season === undefined),
      heldView ? this.deps.rankings.heldView(leaderboard, playerId) : undefined,
    ]);
    const entry: SeasonEntry | undefined = held ? held.entry : countedEntry;
    const total = held ? held.total : counted;
    if (!entry) {
      const when = season === undefined ? '' : ` in season ${season}`;
      throw new NotFoundError('record_not_found', `Player '${playerId}' has no score on leaderboard '${leaderboardId}'${when}.`);
    }
    // An archived record shows the clan the player was in when the season ended.
    const asOfSeason = entry.archivedClanId === undefined ? player : { ...player, clanId: entry.archivedClanId };
    // On a league board the group first: rewards may follow the rank within it.
    const place = leaderboard.groups ? await this.deps.leagues.placeOf(leaderboard, playerId, read) : undefined;
    const reward = await this.deps.rewards.ofRecord(leaderboard, read, playerId, { rank: entry.rank, groupRank: place?.groupRank });
    return {
      leaderboard,
      player: asOfSeason,
      score: Number(entry.score),
      rank: entry.rank,
      total,
      metadata: parseMetadata(entry.metadata),
      ...tieFieldsOf(leaderboard, entry),
      ...(reward && { reward }),
      ...(place && { place }),
      bestRank,
    };
  }

  /**
   * One script per board, together. When none applies (each refused, or Redis failed), the request's
   * Idempotency-Key is given back: only an answered request is remembered.
   */
  private async apply(
    playerId: string,
    pairs: [Leaderboard, Report][],
    retry: RetryRecord | undefined,
    arrivedAt: number,
    scoreField: (index: number) => string,
    { reserved = new Set<number>(), judged = false }: { reserved?: ReadonlySet<number>; judged?: boolean } = {},
  ): Promise<ReportResult[]> {
    const settled = await Promise.allSettled(
      pairs.map(([board, { score, tiebreakers, metadata }], i) =>
        this.deps.rankings.report(board, playerId, score, {
          tiebreakers: tiebreakers ?? [],
          metadata: metadata ? JSON.stringify(metadata) : undefined,
          // One record per pair: a batch may name a board twice, and each pair counts.
          retry: retry && { ...retry, digest: `${retry.digest}.${i}` },
          arrivedAt,
          reserved: reserved.has(board.internalId),
          judged,
        }),
      ),
    );
    // A held score is in PostgreSQL before it is answered, so it survives a lost Redis (docs/review.md).
    await Promise.all(
      settled.map((s, i) => {
        if (s.status !== 'fulfilled' || !s.value.held) return undefined;
        return this.deps.held.record(pairs[i]![0], s.value.season, playerId, s.value.held);
      }),
    );
    const needPersistence = settled.flatMap((s, i) =>
      s.status === 'fulfilled' && s.value.needsPersistence ? [pairs[i]![0].internalId] : [],
    );
    // Most reports find a job already queued for their board: nothing to ask then.
    if (needPersistence.length > 0) await this.deps.marks.requestJobs([...new Set(needPersistence)]);
    const topChanged = settled.flatMap((s, i) => (s.status === 'fulfilled' && s.value.topChanged ? [pairs[i]![0]] : []));
    if (topChanged.length > 0) this.deps.live.changed(topChanged);
    settled.forEach((s, i) => {
      if (s.status !== 'fulfilled' || s.value.overtaken.length === 0) return;
      this.deps.live.overtaken(pairs[i]![0], {
        season: s.value.season,
        by: playerId,
        score: Number(s.value.best),
        players: s.value.overtaken,
      });
    });
    const failed = settled.findIndex((s) => s.status === 'rejected');
    if (failed !== -1) {
      // A refused pair used nothing its batch reserved for it: given back now rather than in 60 s.
      const unused = pairs.filter(([board], i) => settled[i]!.status === 'rejected' && reserved.has(board.internalId));
      await Promise.all(unused.map(([board]) => this.deps.rankings.releaseReports(board, playerId, 1).catch(() => undefined)));
      if (retry && settled.every((s) => s.status === 'rejected')) await this.deps.retries.release(retry);
      const error = (settled[failed] as PromiseRejectedResult).reason as unknown;
      // Settings read before a change of the board's tie settings: read them again for the next try.
      if (error instanceof LayoutChangedError) await this.deps.leaderboards.alignLayout(pairs[failed]![0]);
      // A sum that would overflow names the pair it came from.
      if (error instanceof ValidationError && error.details?.[0]?.field === 'score') {
        throw new ValidationError(error.message, [{ field: scoreField(failed), message: error.details[0].message }]);
      }
      throw error instanceof Error ? error : new Error(String(error));
    }
    return settled.map((s, i) => {
      const outcome = (s as PromiseFulfilledResult<ReportOutcome>).value;
      const [board, { score }] = pairs[i]!;
      return {
        leaderboardId: board.id,
        submittedScore: score,
        bestScore: Number(outcome.best),
        improved: outcome.improved,
        rank: outcome.rank,
        total: outcome.total,
        season: outcome.season,
        ...(outcome.attemptsLeft !== undefined && { attemptsLeft: outcome.attemptsLeft }),
        ...tieFieldsOf(board, outcome),
      };
    });
  }
}

/** The order the API refuses a report in, past its credentials and a ban (docs/competitions.md, part 3). */
const REFUSAL_ORDER: string[] = ['leaderboard_closed', 'not_entered', 'leaderboard_full', 'attempts_exhausted'];

/** How a batch's details name each refused pair, by its refusal. */
const PAIR_REFUSALS: Record<string, (board: string) => string> = {
  leaderboard_closed: (board) => `leaderboard '${board}' is not open for reports`,
  not_entered: (board) => `the player has not entered leaderboard '${board}'`,
  leaderboard_full: (board) => `leaderboard '${board}' is full`,
  attempts_exhausted: (board) => `the player has too few attempts left on leaderboard '${board}' for this batch`,
};

function boundsProblem(leaderboard: Leaderboard, score: number): string | undefined {
  if (leaderboard.minScore !== null && score < leaderboard.minScore) {
    return `must be at least ${leaderboard.minScore} on leaderboard '${leaderboard.id}'`;
  }
  if (leaderboard.maxScore !== null && score > leaderboard.maxScore) {
    return `must be at most ${leaderboard.maxScore} on leaderboard '${leaderboard.id}'`;
  }
  return undefined;
}
