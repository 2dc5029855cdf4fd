import { ForbiddenError, NotFoundError, ValidationError, type ErrorDetail } from '../errors.js';
import type { Leaderboard } from '../leaderboards/leaderboard-store.js';
import type { LeaderboardService } from '../leaderboards/leaderboard-service.js';
import type { PlayerService, PlayerProfile } from '../players/player-service.js';
import type { PersistenceMarks } from '../persistence/marks.js';
import type { AskedSeason, Rankings } from './rankings.js';
import type { SeasonReads } from './season-reads.js';

export interface ReportResult {
  leaderboardId: string;
  submittedScore: number;
  bestScore: number;
  improved: boolean;
  rank: number;
  total: number;
  /** The season the report counted in. */
  season: number;
}

export interface PlayerRecord {
  leaderboard: Leaderboard;
  player: PlayerProfile;
  score: number;
  rank: number;
  total: number;
}

/** Score reports and player records: validation against the leaderboard, then one script per board. */
export class ScoreService {
  constructor(
    private readonly leaderboards: LeaderboardService,
    private readonly players: PlayerService,
    private readonly rankings: Rankings,
    private readonly seasons: SeasonReads,
    private readonly marks: PersistenceMarks,
  ) {}

  /** A game client's report: the leaderboard must accept client reports. */
  async reportFromClient(gameId: string, playerId: string, leaderboardId: string, score: number): Promise<ReportResult> {
    const leaderboard = await this.leaderboards.get(gameId, leaderboardId);
    if (!leaderboard.clientReports) {
      throw new ForbiddenError(`Leaderboard '${leaderboardId}' accepts scores from the game server only.`, 'client_reports_disabled');
    }
    const problem = boundsProblem(leaderboard, score);
    if (problem) throw new ValidationError(`The score ${problem}.`, [{ field: 'score', message: problem }]);
    const [result] = await this.apply(playerId, [[leaderboard, score]]);
    return result!;
  }

  /**
   * A game server's batch. Everything is checked before anything is written, so an invalid pair
   * applies nothing. The writes then go leaderboard by leaderboard (each its own Cluster slot); each is
   * idempotent (a best score never drops), so a batch cut short is completed by the client's retry.
   */
  async reportFromServer(gameId: string, playerId: string, pairs: [leaderboardId: string, score: number][]): Promise<ReportResult[]> {
    await this.players.get(gameId, playerId);
    const found = await Promise.all(
      pairs.map(([id]) =>
        this.leaderboards.get(gameId, id).catch((error: unknown) => {
          if (error instanceof NotFoundError) return undefined;
          throw error;
        }),
      ),
    );
    const details: ErrorDetail[] = [];
    const checked: [Leaderboard, number][] = [];
    pairs.forEach(([id, score], i) => {
      const leaderboard = found[i];
      if (!leaderboard) {
        details.push({ field: `leaderboard_ids[${i}]`, message: `no leaderboard '${id}' in this game` });
        return;
      }
      const problem = boundsProblem(leaderboard, score);
      if (problem) details.push({ field: `scores[${i}]`, message: problem });
      checked.push([leaderboard, score]);
    });
    if (details.length > 0) {
      throw new ValidationError('The batch was not applied: fix the listed pairs and send it again.', details);
    }
    return this.apply(playerId, checked);
  }

  async record(gameId: string, leaderboardId: string, playerId: string, season?: AskedSeason): Promise<PlayerRecord> {
    const [leaderboard, player] = await Promise.all([this.leaderboards.get(gameId, leaderboardId), this.players.get(gameId, playerId)]);
    const { total, entries } = await this.seasons.scoresOf(leaderboard, 'players', [playerId], season);
    const entry = entries[0];
    if (!entry) {
      const when = season === undefined ? '' : ` in season ${season}`;
      throw new NotFoundError('record_not_found', `Player '${playerId}' has no score on leaderboard '${leaderboardId}'${when}.`);
    }
    // An archived record shows the clan the player was in when the season ended.
    const asOfSeason = entry.archivedClanId === undefined ? player : { ...player, clanId: entry.archivedClanId };
    return { leaderboard, player: asOfSeason, score: Number(entry.score), rank: entry.rank, total };
  }

  private async apply(playerId: string, pairs: [Leaderboard, number][]): Promise<ReportResult[]> {
    const outcomes = await Promise.all(pairs.map(([board, score]) => this.rankings.report(board, playerId, score)));
    const needPersistence = pairs.filter((_, i) => outcomes[i]!.needsPersistence).map(([board]) => board.internalId);
    // Most reports find a job already queued for their board: nothing to ask then.
    if (needPersistence.length > 0) await this.marks.requestJobs([...new Set(needPersistence)]);
    return outcomes.map((outcome, i) => {
      const [board, score] = pairs[i]!;
      return {
        leaderboardId: board.id,
        submittedScore: score,
        bestScore: Number(outcome.best),
        improved: outcome.improved,
        rank: outcome.rank,
        total: outcome.total,
        season: outcome.season,
      };
    });
  }
}

function boundsProblem(leaderboard: Leaderboard, score: number): string | undefined {
  if (leaderboard.minScore !== null && score < leaderboard.minScore) {
    return `must be at least ${leaderboard.minScore} on leaderboard '${leaderboard.id}'`;
  }
  if (leaderboard.maxScore !== null && score > leaderboard.maxScore) {
    return `must be at most ${leaderboard.maxScore} on leaderboard '${leaderboard.id}'`;
  }
  return undefined;
}
