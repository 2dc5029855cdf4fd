import type { Leaderboard, LeaderboardStore } from '../leaderboards/leaderboard-store.js';
import type { Rankings } from '../ranking/rankings.js';
import type { ClaimedChanges, PersistenceMarks } from './marks.js';
import type { ScoreStore } from './score-store.js';

/**
 * What a persistence job does to one leaderboard, step by step, for the worker's processor (which
 * paces the rounds and measures them): claim the oldest marks, write them, ack them.
 */
export class Persister {
  constructor(
    private readonly leaderboards: LeaderboardStore,
    private readonly rankings: Rankings,
    private readonly marks: PersistenceMarks,
    private readonly scores: ScoreStore,
  ) {}

  /** The leaderboard, or undefined once deleted. */
  find(internalId: number): Promise<Leaderboard | undefined> {
    return this.leaderboards.findByInternalId(internalId);
  }

  /** Removes whatever a report racing a deletion left in Redis. */
  dropLiveState(internalId: number): Promise<void> {
    return this.rankings.drop({ internalId });
  }

  /** The oldest marks of the board with their current values; marks stay until acked. */
  claim(board: Leaderboard, maxPlayers: number, maxClans: number): Promise<ClaimedChanges> {
    return this.marks.claim(board, maxPlayers, maxClans);
  }

  /** Writes the claimed changes to PostgreSQL; the number of rows written. */
  async write(board: Leaderboard, claimed: ClaimedChanges): Promise<number> {
    const present = claimed.players.filter((player) => player.score !== '');
    await this.scores.writeScores(
      board.internalId,
      board.sortOrder,
      present.map((p) => p.playerId),
      present.map((p) => p.score),
    );
    await this.scores.writeClanTotals(board.internalId, claimed.clans);
    return present.length + claimed.clans.length;
  }

  /** Clears the claimed marks PostgreSQL now holds; the number of marks left on the board. */
  ack(board: Leaderboard, claimed: ClaimedChanges): Promise<number> {
    return this.marks.ack(board, claimed);
  }

  /** Queues a fresh job for the board (its queued flag is still held by the current one). */
  continueLater(internalId: number): Promise<void> {
    return this.marks.requestJobs([internalId]);
  }
}
