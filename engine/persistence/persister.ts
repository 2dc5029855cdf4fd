import type { AuditStore } from '../audit/audit-store.js';
import type { Queryable, RunInTransaction } from '../db.js';
import type { Leaderboard, LeaderboardStore } from '../leaderboards/leaderboard-store.js';
import type { SeasonArchiveStore } from '../seasons/season-archive-store.js';
import type { SeasonRotation } from '../live/season-rotation.js';
import type { ClaimedChanges, PersistenceMarks } from './marks.js';
import type { ScoreStore } from './score-store.js';
import type { SeatStore } from './seat-store.js';
import { bandsView } from '../competitions/rewards.js';
import type { LeagueMoves } from '../competitions/league-moves.js';
import type { Pace } from '../pace.js';
import { EVENT_TOP, standingsData, type RecordedAttempts, type WebhookEvents } from '../events/webhook-events.js';
import type { PlayerStore } from '../players/player-store.js';
import type { OvertakenEvents } from '../events/overtaken-events.js';
import type { ReviewStore } from '../reviews/review-store.js';
import { rejectEnded } from '../reviews/held-scores.js';

/**
 * What a persistence job does to one leaderboard, step by step, for the worker's processor (which
 * paces the rounds and measures them): claim the oldest marks, write them, ack them.
 */
export class Persister {
  constructor(
    private readonly deps: {
      leaderboards: LeaderboardStore;
      rotation: SeasonRotation;
      marks: PersistenceMarks;
      scores: ScoreStore;
      seats: SeatStore;
      archives: SeasonArchiveStore;
      leagueMoves: LeagueMoves;
      transact: RunInTransaction;
      audit: AuditStore;
      /** How a season's end keeps to its share of the machine (ARCHIVE_CPU_SHARE). */
      pace: Pace;
      /** `season.ended` is recorded in the archive's transaction (docs/events.md). */
      events: WebhookEvents;
      players: PlayerStore;
      /** `player.overtaken` records wait in Redis for the board's persistence job (docs/events.md part 5). */
      overtaken: OvertakenEvents;
      /** A season's undecided held scores are rejected in its archive's transaction (docs/review.md). */
      reviews: ReviewStore;
    },
  ) {}

  /**
   * Writes every ended season of the board that Redis still holds to PostgreSQL, oldest first, each
   * in one transaction (a retried or concurrent job finds it written and skips it), then drops its
   * Redis keys. The number of seasons archived.
   */
  async archiveEndedSeasons(board: Leaderboard): Promise<number> {
    const pending = await this.deps.rotation.endedSeasons(board);
    for (const season of [...pending.keys()].sort((a, b) => a - b)) {
      const { startedAt, endedAt } = pending.get(season)!;
      // A league's moves first (most often done already, by the first player of the next season):
      // the archive keeps each group's result.
      await this.deps.leagueMoves.apply(board, season, this.deps.pace);
      // A large season takes a while: the job keeps its claim on the board meanwhile.
      const holding = setInterval(() => void this.deps.marks.holdJob(board).catch(() => undefined), 5000);
      let ended: RecordedAttempts = [];
      try {
        await this.deps.transact(async (client) => {
          const archived = await this.deps.archives.in(client).archive(
            board,
            {
              season,
              startedAt: startedAt === 0 ? board.seasonStartedAt : new Date(startedAt),
              endedAt: new Date(endedAt),
              settings: settingsOf(board),
              players: this.deps.rotation.endedPlayers(board, season),
              clans: this.deps.rotation.endedClans(board, season),
              groups: this.deps.rotation.endedGroupResults(board, season),
            },
            this.deps.pace,
          );
          // A reset PostgreSQL missed (it was down) is audited now, once, under the row lock the archive holds.
          if (!archived) return;
          await this.deps.audit.in(client).recordResetOnce(board, season);
          // Held scores still undecided when their season ends are rejected by the service itself.
          await rejectEnded(client, this.deps.reviews, this.deps.audit, board, season);
          ended = await this.deps.events.record(client, {
            gameId: board.gameId,
            type: 'season.ended',
            leaderboard: board,
            data: () => this.seasonEnded(client, board, season, new Date(endedAt)),
          });
          // The league's moves are final with the archive that keeps them.
          if (board.groups) {
            const moved = await this.deps.events.recordEach(client, {
              gameId: board.gameId,
              type: 'player.moved',
              leaderboard: board,
              data: () => this.playersMoved(client, board, season),
            });
            ended = [...ended, ...moved];
          }
        });
      } finally {
        clearInterval(holding);
      }
      await this.deps.events.queue(ended);
      await this.deps.rotation.dropEnded(board, season);
    }
    return pending.size;
  }

  /** `season.ended`'s data: the archived season's total and first entries, as reads show them. */
  private async seasonEnded(client: Queryable, board: Leaderboard, season: number, endedAt: Date): Promise<Record<string, unknown>> {
    const view = board.type === 'clan' ? 'clans' : 'players';
    const read = await this.deps.archives.in(client).page(board.internalId, season, view, 0, EVENT_TOP);
    const total = read?.season.total ?? 0;
    return standingsData(client, this.deps.players, board, { season, at: endedAt, total }, read?.entries ?? []);
  }

  /** `player.moved`'s data: one item per member the season's end moved to another tier. */
  private async playersMoved(client: Queryable, board: Leaderboard, season: number): Promise<{ data: Record<string, unknown> }[]> {
    const tiers = board.groups?.tiers ?? [];
    const moved = await this.deps.archives.in(client).movedPlayers(board.internalId, season);
    return moved.map((move) => ({
      data: {
        leaderboard_id: board.id,
        season,
        player_id: move.playerId,
        from_tier: tiers[move.tier] ?? null,
        to_tier: tiers[move.movedTo] ?? null,
        group_rank: move.groupRank,
      },
    }));
  }

  /** The leaderboard, or undefined once deleted. */
  find(internalId: number): Promise<Leaderboard | undefined> {
    return this.deps.leaderboards.findByInternalId(internalId);
  }

  /** Removes whatever a report racing a deletion left in Redis. */
  dropLiveState(internalId: number): Promise<void> {
    return this.deps.rotation.drop({ internalId });
  }

  /**
   * Moves the board's `player.overtaken` records into webhook events. Each round of a job does it
   * after its ack: a report that records one also marks a change, so a record written after the
   * ack keeps the job going (its mark is left) or, once the last ack let the queued flag go,
   * queues the next job; one written before it is moved now.
   */
  recordOvertaken(board: Leaderboard): Promise<void> {
    return this.deps.overtaken.recordAll(board);
  }

  /** The oldest marks of the board with their current values; marks stay until acked. */
  claim(board: Leaderboard, maxPlayers: number, maxClans: number): Promise<ClaimedChanges> {
    return this.deps.marks.claim(board, maxPlayers, maxClans);
  }

  /** Writes the claimed changes to PostgreSQL; the number of rows written. */
  async write(board: Leaderboard, claimed: ClaimedChanges): Promise<number> {
    const present = claimed.players.filter((player) => player.score !== '');
    // A removed score comes with the version of its removal (a mark without either has nothing to write).
    const removed = claimed.players.filter((player) => player.score === '' && player.version !== '');
    const season = claimed.season === '' ? board.season : Number(claimed.season);
    // Seats first, so no persisted score lacks the seat it took (docs/competitions.md, part 3). Only an
    // erasure's removal takes the seat row too: a removed score keeps its attempts (a seat still in Redis).
    const seats = claimed.players.filter((player) => player.seat !== '');
    await this.deps.seats.writeSeats(board.internalId, season, seats);
    await this.deps.seats.deleteSeats(
      board.internalId,
      season,
      removed.filter((player) => player.seat === ''),
    );
    await this.deps.scores.writeScores(board.internalId, season, { order: board.sortOrder, strategy: board.updateStrategy }, present);
    await this.deps.scores.deleteScores(board.internalId, season, removed);
    await this.deps.scores.writeBestRanks(board.internalId, season, present);
    await this.deps.scores.writeClanTotals(board.internalId, season, claimed.clans);
    const written = present.length + removed.length + seats.length + claimed.clans.length;
    // A rebuild of a lost dataset takes the most recently active boards first.
    if (written > 0) await this.deps.leaderboards.markActive(board.internalId);
    return written;
  }

  /** Clears the claimed marks PostgreSQL now holds; the number of marks left on the board. */
  ack(board: Leaderboard, claimed: ClaimedChanges): Promise<number> {
    return this.deps.marks.ack(board, claimed);
  }

  /** Queues a fresh job for the board (its queued flag is still held by the current one). */
  continueLater(internalId: number): Promise<void> {
    return this.deps.marks.requestJobs([internalId]);
  }
}

/** The settings an archive keeps beside its entries. */
function settingsOf(board: Leaderboard) {
  return {
    name: board.name,
    type: board.type,
    sort_order: board.sortOrder,
    client_reports: board.clientReports,
    min_score: board.minScore,
    max_score: board.maxScore,
    reset_schedule: board.resetSchedule,
    keep_seasons: board.keepSeasons,
    update_strategy: board.updateStrategy,
    tie_break: board.tieBreak,
    tiebreakers: board.tiebreakers.map((column) => ({ name: column.name, sort_order: column.sortOrder })),
    // An archived season keeps the bands it ended with: its claims read them (engine/competitions/claims.ts).
    rewards: bandsView(board.rewards),
    rewards_by: board.rewardsBy,
    groups: board.groups,
  };
}
