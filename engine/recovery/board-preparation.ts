import type { Leaderboard } from '../leaderboards/leaderboard-store.js';
import type { PlayerStore } from '../players/player-store.js';
import type { ScoreStore } from '../persistence/score-store.js';
import type { SeatStore } from '../persistence/seat-store.js';
import type { ResetSchedules } from '../seasons/reset-schedules.js';
import type { Rankings } from '../live/rankings.js';
import { layoutOf } from '../live/types.js';
import { hasEntryRules } from '../competitions/entry-rules.js';
import type { ReviewStore } from '../reviews/review-store.js';

/**
 * What PostgreSQL holds for a board's preparation: persisted scores, barred players in its game,
 * clan members in its game. A source known empty is not read; unknown ones are.
 */
export interface BoardSources {
  scores: boolean;
  barred: boolean;
  clans: boolean;
  /** Undecided held scores (docs/review.md). */
  held: boolean;
}

const EVERY_SOURCE: BoardSources = { scores: true, barred: true, clans: true, held: true };

/**
 * Brings a leaderboard's Redis state in line with PostgreSQL: the layout of its entries (by its tie
 * settings, docs/ordering.md), its scheduled resets, the game's bans,
 * clan memberships (on clan leaderboards), every persisted score, merged without losing
 * anything reported since, and the seats of a board with entry rules; last, the mark that its live state is whole (the season key), without
 * which every script refuses the board (engine/live/scripts/includes/live-season.lua). Used for new
 * leaderboards and by the rebuild (engine/recovery/rebuild.ts), under the board's lock.
 * Atomic per chunk (one script, one slot), not as a whole: a board being prepared for the first
 * time answers nothing until it is marked; a board merged back while it answers (`npm run rebuild`)
 * is safe on best boards because every step keeps the better score (ZADD GT/LT) and moves clan
 * totals by exact differences, the same way a report does, and latest and sum boards only take
 * entries Redis lacks.
 */
export class BoardPreparation {
  constructor(
    private readonly deps: {
      rankings: Rankings;
      players: PlayerStore;
      scores: ScoreStore;
      seats: SeatStore;
      reviews: ReviewStore;
      schedules: ResetSchedules;
    },
  ) {}

  /**
   * The sources of each of a page of boards, in two queries for the whole page: a rebuild walk then
   * reads nothing for the many boards that hold nothing (docs/architecture.md, "A lost dataset never answers wrong").
   */
  async survey(boards: readonly Leaderboard[]): Promise<Map<number, BoardSources>> {
    const [scored, games, held] = await Promise.all([
      this.deps.scores.boardsHoldingScores(boards),
      this.deps.players.gamesWithBarredOrClans(boards.map((board) => board.gameId)),
      this.deps.reviews.boardsHolding(boards.map((board) => board.internalId)),
    ]);
    return new Map(
      boards.map((board) => [
        board.internalId,
        {
          scores: scored.has(board.internalId),
          barred: games.barred.has(board.gameId),
          clans: board.type === 'clan' && games.clans.has(board.gameId),
          held: held.has(board.internalId),
        },
      ]),
    );
  }

  async prepare(leaderboard: Leaderboard, sources: BoardSources = EVERY_SOURCE): Promise<void> {
    // Before any entry goes in: a board holding entries keeps its layout, which is its settings'
    // already (they change only while it holds none).
    if (!(await this.deps.rankings.setLayout(leaderboard, layoutOf(leaderboard)))) {
      throw new Error(`leaderboard ${leaderboard.internalId} holds entries laid out for other tie settings than PostgreSQL's`);
    }
    await this.deps.schedules.restore(leaderboard);
    // Bans first (erased players too: their tokens are refused by the board): a banned player's
    // scores then merge out of sight.
    if (sources.barred) {
      for await (const page of this.deps.players.barredIds(leaderboard.gameId)) await this.deps.rankings.banOnPreparing(leaderboard, page);
    }
    if (leaderboard.type === 'clan' && sources.clans) {
      for await (const page of this.deps.players.clanMemberships(leaderboard.gameId))
        await this.deps.rankings.setClans(leaderboard, page, true);
    }
    // The current season only: ended seasons live in their archives, and are never merged back.
    const season = leaderboard.season;
    if (sources.scores) {
      for await (const page of this.deps.scores.scorePages(leaderboard.internalId, season)) {
        if (!(await this.deps.rankings.merge(leaderboard, season, page))) return; // reset meanwhile: the scores belong to the archive
      }
    }
    // A league's tiers before its seats: nobody joins a group at a tier the moves have changed since.
    // Only into a board that lost them all: tiers Redis holds are newer than PostgreSQL's (the lowest
    // tier is no field, so a merge would bring back a tier a move not yet archived took away).
    if (leaderboard.groups && !(await this.deps.rankings.holdsTiers(leaderboard))) {
      for await (const page of this.deps.seats.tierPages(leaderboard.internalId)) await this.deps.rankings.restoreTiers(leaderboard, page);
    }
    // After the entries, so an entered player who holds none waits for a first report again.
    if (hasEntryRules(leaderboard)) {
      for await (const page of this.deps.seats.seatPages(leaderboard.internalId, season)) {
        if (!(await this.deps.rankings.restoreSeats(leaderboard, season, page))) return;
      }
    }
    // Held scores survive a lost Redis still held: an approval then counts them once (docs/review.md).
    if (sources.held) {
      const held = await this.deps.reviews.heldOf(leaderboard.internalId, season);
      if (held.length > 0 && !(await this.deps.rankings.restoreHeld(leaderboard, season, held))) return;
    }
    await this.deps.rankings.markPrepared(leaderboard);
  }
}
