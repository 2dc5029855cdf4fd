import { NotFoundError, UnavailableError } from '../errors.js';
import { storable, type Queryable, type RunInTransaction } from '../db.js';
import type { Actor, AuditStore } from '../audit/audit-store.js';
import type { LeaderboardService } from '../leaderboards/leaderboard-service.js';
import type { BanKind, Player, PlayerStore } from '../players/player-store.js';
import type { ReviewStore } from '../reviews/review-store.js';
import type { ScoreStore } from '../persistence/score-store.js';
import type { SeatStore } from '../persistence/seat-store.js';
import type { Invalidator } from '../invalidator.js';
import type { Rankings } from '../live/rankings.js';
import type { SeasonRotation } from '../live/season-rotation.js';
import type { SeasonArchiveStore } from '../seasons/season-archive-store.js';
import type { WebhookStore } from '../events/webhook-store.js';
import type { LiveChanges } from '../events/live-feed.js';

/**
 * Moderation: removing one score, banning, unbanning and erasing a player. PostgreSQL holds the decision (and
 * its audit entry, in the same transaction); Redis applies it board by board, each board in one
 * atomic script (engine/live/scripts/moderateEntry-27.lua), so every read sees a board with the player
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
      leaderboards: LeaderboardService;
      rankings: Rankings;
      rotation: SeasonRotation;
      scores: ScoreStore;
      seats: SeatStore;
      archives: SeasonArchiveStore;
      /** Stored webhook events that name a player (docs/events.md). */
      webhooks: WebhookStore;
      /** A shadow ban's held reports (docs/review.md part 6). */
      reviews: ReviewStore;
      audit: AuditStore;
      invalidator: Invalidator;
      /** Live streams show the boards again after a change (and end a banned or erased player's). */
      live: LiveChanges;
    },
  ) {}

  /** How the player is banned from the game: null when not banned (or not in it). */
  async banKind(gameId: string, playerId: string): Promise<BanKind | null> {
    if (!storable(playerId)) return null;
    return (await this.deps.players.findInGame(gameId, playerId))?.banKind ?? null;
  }

  /**
   * Bans the player, outright or (`kind` 'shadow', docs/review.md part 6) without telling them.
   * Idempotent: a second ban keeps the first one's time and reason, and only changes its kind.
   */
  async ban(gameId: string, playerId: string, reason: string | null, actor: Actor, kind: BanKind = 'ban'): Promise<Player> {
    return this.setBan(gameId, playerId, { reason, kind }, actor);
  }

  /** Unbans the player: every score and clan contribution comes back as it was. */
  async unban(gameId: string, playerId: string, actor: Actor): Promise<Player> {
    return this.setBan(gameId, playerId, null, actor);
  }

  /**
   * Removes the player's score from the board's current season, or (`season`) from an archived one,
   * where the row is withdrawn, not deleted, so the rows ranked below close up without being
   * renumbered. 404 record_not_found when there is none; 404 season_not_found for a season never
   * kept; 503 while an ended season is still on its way to its archive.
   */
  async removeScore(gameId: string, leaderboardId: string, playerId: string, season: number | undefined, actor: Actor): Promise<void> {
    const { leaderboards, rankings, rotation, archives, audit, transact } = this.deps;
    const board = await leaderboards.get(gameId, leaderboardId);
    const live = await rotation.seasons(board);
    const current = live.season;
    const noScore = () =>
      new NotFoundError(
        'record_not_found',
        `The player '${playerId}' has no score on '${leaderboardId}'${season ? ` in season ${season}` : ''}.`,
      );
    const recorded = (client: Queryable | undefined, removedFrom: number) =>
      (client ? audit.in(client) : audit).record({
        gameId,
        actor,
        action: 'score.remove',
        target: playerId,
        details: { leaderboard_id: leaderboardId, season: removedFrom },
      });
    if (season === undefined || season === current) {
      const [removed] = await rankings.moderate([board], playerId, 'remove');
      if (!removed) throw noScore();
      this.deps.live.changed([board]);
      await recorded(undefined, current);
      return;
    }
    if (season > current) throw new NotFoundError('season_not_found', `Leaderboard '${leaderboardId}' has no season ${season} yet.`);
    if (live.ended.has(season)) {
      throw new UnavailableError(`Season ${season} is being archived; retry shortly.`);
    }
    await transact(async (client) => {
      if (!(await archives.in(client).removeEntry(board.internalId, season, playerId))) {
        if (!(await archives.find(board.internalId, season))) {
          throw new NotFoundError('season_not_found', `Leaderboard '${leaderboardId}' keeps no season ${season}.`);
        }
        throw noScore();
      }
      await recorded(client, season);
    });
  }

  /**
   * Erases the player (a data-protection request): their row, device binding, display name,
   * aliases, clan membership, every score, live and persisted, and the details of their earlier
   * audit entries (names, aliases, ban reasons) go; ranks and clan totals close up
   * at once, and every process refuses their tokens once the change is announced. Each board keeps
   * the id in its banned set, so a report already past its token check is refused by the board's
   * script; a later signup on the same device is a new player.
   */
  async erase(gameId: string, playerId: string, actor: Actor): Promise<void> {
    const { transact, players, scores, seats, audit, rankings, leaderboards } = this.deps;
    if (!storable(playerId)) throw unknownPlayer(playerId);
    const boards = await leaderboards.all(gameId);
    const erased = await transact(async (client) => {
      const locked = await players.in(client).lock(gameId, playerId);
      if (!locked) throw unknownPlayer(playerId);
      for (const board of boards.filter((b) => b.type === 'clan')) await rankings.setClans(board, [[playerId, null]]);
      await rankings.moderate(boards, playerId, 'ban');
      await rankings.moderate(boards, playerId, 'erase');
      await scores.in(client).deletePlayer(playerId);
      await seats.in(client).deletePlayer(playerId);
      await this.deps.archives.in(client).erasePlayer(gameId, playerId);
      await this.deps.webhooks.in(client).erasePlayer(gameId, playerId);
      await players.in(client).delete(gameId, playerId);
      await audit.in(client).forgetPlayer(gameId, playerId);
      await audit.in(client).record({ gameId, actor, action: 'player.delete', target: playerId });
      return locked;
    });
    await this.deps.invalidator.playerChanged(playerId);
    this.deps.live.changed(boards);
    // Their clan has one member fewer: cached member counts go in every process.
    if (erased.clanId !== null) await this.deps.invalidator.clansChanged();
  }

  private async setBan(
    gameId: string,
    playerId: string,
    ban: { reason: string | null; kind: BanKind } | null,
    actor: Actor,
  ): Promise<Player> {
    const { transact, players, audit, invalidator } = this.deps;
    if (!storable(playerId)) throw unknownPlayer(playerId);
    const boards = await this.deps.leaderboards.all(gameId);
    const { player, changed, clanId } = await transact(async (client) => {
      const before = await players.in(client).lock(gameId, playerId);
      if (!before) throw unknownPlayer(playerId);
      const player = (await players.in(client).setBan(gameId, playerId, ban))!;
      await this.deps.rankings.moderate(boards, playerId, ban ? 'ban' : 'unban', ban?.kind === 'shadow');
      if (ban) await this.deps.archives.in(client).hidePlayer(gameId, playerId);
      else await this.deps.archives.in(client).showPlayer(gameId, playerId);
      // What a shadow ban held goes when it ends (the script dropped it from Redis, docs/review.md part 6).
      if (before.banKind === 'shadow' && ban?.kind !== 'shadow') await this.deps.reviews.in(client).dropShadowed(playerId, actor);
      // Repeating a ban or an unban changes nothing, so it records nothing.
      const changed = before.banKind !== (ban?.kind ?? null);
      if (changed) {
        await audit.in(client).record({
          gameId,
          actor,
          action: ban ? 'player.ban' : 'player.unban',
          target: playerId,
          details: ban ? { reason: ban.reason, ...(ban.kind === 'shadow' && { shadow: true }) } : {},
        });
      }
      return { player, changed, clanId: before.clanId };
    });
    if (changed) {
      // Every process ends the banned player's live streams (docs/events.md) and shows the boards again.
      await invalidator.playerChanged(playerId);
      this.deps.live.changed(boards);
    }
    // A clan's member count leaves out banned members: cached counts go in every process.
    if (changed && clanId !== null) await invalidator.clansChanged();
    return player;
  }
}

function unknownPlayer(playerId: string): NotFoundError {
  return new NotFoundError('player_not_found', `No player has the id '${playerId}' in this game.`);
}
