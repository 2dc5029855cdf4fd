import { NotFoundError } from '../errors.js';
import { storable, type RunInTransaction } from '../db.js';
import type { Actor, AuditStore } from '../audit/audit-store.js';
import type { Leaderboard, LeaderboardStore } from '../leaderboards/leaderboard-store.js';
import type { LeaderboardService } from '../leaderboards/leaderboard-service.js';
import type { Player, PlayerStore } from '../players/player-store.js';
import type { ScoreStore } from '../persistence/score-store.js';
import type { Invalidator } from '../invalidator.js';
import type { Rankings } from '../ranking/rankings.js';

/**
 * Moderation: removing one score, banning and unbanning a player. PostgreSQL holds the decision (and
 * its audit entry, in the same transaction); Redis applies it board by board, each board in one
 * atomic script (engine/scripts/moderateEntry-14.lua), so every read sees a board with the player
 * fully in or fully out, ranks and totals closed up. The Redis steps run while the player's row is
 * locked, so two moderation requests for one player reach every board in the same order; they are
 * idempotent, so a request that failed half way is completed by sending it again. The work is one
 * script per board of the game, each O(log n) in the board's size.
 */
export class ModerationService {
  constructor(
    private readonly deps: {
      transact: RunInTransaction;
      players: PlayerStore;
      boards: LeaderboardStore;
      leaderboards: LeaderboardService;
      rankings: Rankings;
      scores: ScoreStore;
      audit: AuditStore;
      invalidator: Invalidator;
    },
  ) {}

  /** Bans the player (idempotent: a second ban keeps the first one's time and reason). */
  async ban(gameId: string, playerId: string, reason: string | null, actor: Actor): Promise<Player> {
    return this.setBan(gameId, playerId, { reason }, actor);
  }

  /** Unbans the player: every score and clan contribution comes back as it was. */
  async unban(gameId: string, playerId: string, actor: Actor): Promise<Player> {
    return this.setBan(gameId, playerId, null, actor);
  }

  /** Removes the player's score from the board's current season; 404 record_not_found when there is none. */
  async removeScore(gameId: string, leaderboardId: string, playerId: string, actor: Actor): Promise<void> {
    const board = await this.deps.leaderboards.get(gameId, leaderboardId);
    const [removed] = await this.deps.rankings.moderate([board], playerId, 'remove');
    if (!removed) throw new NotFoundError('record_not_found', `The player '${playerId}' has no score on '${leaderboardId}'.`);
    await this.deps.audit.record({
      gameId,
      actor,
      action: 'score.remove',
      target: playerId,
      details: { leaderboard_id: leaderboardId, season: await this.deps.rankings.currentSeason(board) },
    });
  }

  /**
   * Erases the player (a data-protection request): their row, device binding, display name,
   * aliases, clan membership and every score, live and persisted, go; ranks and clan totals close up
   * at once, and every process refuses their tokens once the change is announced. Each board keeps
   * the id in its banned set, so a report already past its token check is refused by the board's
   * script; a later signup on the same device is a new player.
   */
  async erase(gameId: string, playerId: string, actor: Actor): Promise<void> {
    const { transact, players, scores, audit, rankings } = this.deps;
    if (!storable(playerId)) throw unknownPlayer(playerId);
    await transact(async (client) => {
      if (!(await players.in(client).lock(gameId, playerId))) throw unknownPlayer(playerId);
      for await (const boards of this.boardsOf(gameId)) {
        for (const board of boards.filter((b) => b.type === 'clan')) await rankings.setClans(board, [[playerId, null]]);
        await rankings.moderate(boards, playerId, 'ban');
        await rankings.moderate(boards, playerId, 'remove');
      }
      await scores.in(client).deletePlayer(playerId);
      await players.in(client).delete(gameId, playerId);
      await audit.in(client).record({ gameId, actor, action: 'player.delete', target: playerId });
    });
    await this.deps.invalidator.playerChanged(playerId);
  }

  private async setBan(gameId: string, playerId: string, ban: { reason: string | null } | null, actor: Actor): Promise<Player> {
    const { transact, players, audit } = this.deps;
    if (!storable(playerId)) throw unknownPlayer(playerId);
    return transact(async (client) => {
      const before = await players.in(client).lock(gameId, playerId);
      if (!before) throw unknownPlayer(playerId);
      const player = (await players.in(client).setBan(gameId, playerId, ban))!;
      for await (const boards of this.boardsOf(gameId)) await this.deps.rankings.moderate(boards, playerId, ban ? 'ban' : 'unban');
      // Repeating a ban or an unban changes nothing, so it records nothing.
      if (before.banned !== (ban !== null)) {
        await audit.in(client).record({
          gameId,
          actor,
          action: ban ? 'player.ban' : 'player.unban',
          target: playerId,
          details: ban ? { reason: ban.reason } : {},
        });
      }
      return player;
    });
  }

  private boardsOf(gameId: string): AsyncGenerator<Leaderboard[]> {
    return this.deps.boards.walkGame(gameId);
  }
}

function unknownPlayer(playerId: string): NotFoundError {
  return new NotFoundError('player_not_found', `No player has the id '${playerId}' in this game.`);
}
