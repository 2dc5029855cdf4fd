import type { BanKind } from '../players/player-store.js';
import type { Actor, AuditStore } from '../audit/audit-store.js';
import type { RunInTransaction } from '../db.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../errors.js';
import type { LeaderboardService } from '../leaderboards/leaderboard-service.js';
import type { SeasonRotation } from '../live/season-rotation.js';
import type { ScoreService } from '../scores/score-service.js';
import type { ClaimStore, ListedClaim } from './claim-store.js';
import { rewardRank, type RewardReads } from './reward-reads.js';
import { rewardOf } from './rewards.js';
import { windowOf, windowState } from './window.js';

export interface ClaimedReward {
  leaderboardId: string;
  season: number;
  playerId: string;
  rank: number;
  reward: object;
  claimedAt: Date;
}

/**
 * Reward claims (docs/competitions.md, part 4): once a season has closed or ended, a player claims
 * the reward of the rank they are shown, exactly once; the claim freezes rank and reward.
 */
export class ClaimService {
  constructor(
    private readonly deps: {
      leaderboards: LeaderboardService;
      rotation: SeasonRotation;
      scores: ScoreService;
      store: ClaimStore;
      rewards: RewardReads;
      transact: RunInTransaction;
      audit: AuditStore;
    },
  ) {}

  /** A season's claims, newest first (the dashboard's list). */
  list(board: { internalId: number }, season: number, limit: number): Promise<{ total: number; claims: ListedClaim[] }> {
    return this.deps.store.list(board.internalId, season, limit);
  }

  /**
   * The player's claim of `season`. In order: 404 for an unknown board or season, 409 conflict while
   * the season is open, 403 player_banned (a shadow-banned player's own claim: 404 record_not_found,
   * docs/review.md part 6), 404 record_not_found without a rank or a reward for it,
   * 409 already_claimed after the first claim (its time in the details). A server's claim (`actor`)
   * is audited; a client's is not.
   */
  async claim(gameId: string, leaderboardId: string, season: number, playerId: string, actor?: Actor): Promise<ClaimedReward> {
    const board = await this.deps.leaderboards.get(gameId, leaderboardId);
    // Redis's season, not the cached one: a claim right after a reset sees the season as ended.
    const live = await this.deps.rotation.seasons(board);
    if (season > live.season) throw new NotFoundError('season_not_found', `Leaderboard '${leaderboardId}' has no season ${season} yet.`);
    if (season === live.season && windowState(windowOf(board, live.season, live.startedAt), Date.now()) !== 'closed') {
      throw new ConflictError(`Season ${season} of leaderboard '${leaderboardId}' is still open: rewards are claimed once it has closed.`);
    }
    refuseBanned(await this.deps.store.banKind(gameId, playerId), leaderboardId, actor);
    const record = await this.deps.scores.record(gameId, leaderboardId, playerId, season);
    const { bands, by } = await this.deps.rewards.bandsOf(board, season, live.season);
    // The rank the bands read: the board's, or on a league whose rewards follow groups, the group's.
    const rank = rewardRank(by, { rank: record.rank, groupRank: record.place?.groupRank });
    const reward = rank === undefined ? null : rewardOf(bands, rank);
    if (!reward || rank === undefined) {
      const what = by === 'group_rank' ? `Group rank ${rank ?? '(none)'}` : `Rank ${rank}`;
      throw new NotFoundError('record_not_found', `${what} of season ${season} earns no reward on leaderboard '${leaderboardId}'.`);
    }
    const claimedAt = await this.deps.transact(async (client) => {
      const store = this.deps.store.in(client);
      // Checked again under the player's row lock: a ban falls wholly before or after the claim.
      const banKind = await store.banKind(gameId, playerId);
      if (banKind === undefined) throw new NotFoundError('player_not_found', `No player has the id '${playerId}' in this game.`);
      refuseBanned(banKind, leaderboardId, actor);
      const at = await store.insert(board.internalId, season, playerId, rank, reward);
      if (at && actor) {
        await this.deps.audit.in(client).record({
          gameId,
          actor,
          action: 'player.claim',
          target: playerId,
          details: { leaderboard_id: leaderboardId, season, rank, reward },
        });
      }
      return at;
    });
    if (!claimedAt) {
      const first = await this.deps.store.find(board.internalId, season, playerId);
      const at = first?.claimedAt.toISOString() ?? '';
      throw new ConflictError(`Season ${season}'s reward was claimed already, at ${at}.`, 'already_claimed', [
        { field: 'claimed_at', message: at },
      ]);
    }
    return { leaderboardId, season, playerId, rank, reward, claimedAt };
  }
}

/**
 * A banned player claims nothing: 403 player_banned, except a shadow-banned player's own claim (no
 * `actor`), answered as if they had no rank, so they are never told (docs/review.md part 6).
 */
function refuseBanned(banKind: BanKind | null | undefined, leaderboardId: string, actor: Actor | undefined): void {
  if (banKind === 'shadow' && actor === undefined) {
    throw new NotFoundError('record_not_found', `The player has no rank earning a reward on leaderboard '${leaderboardId}'.`);
  }
  if (banKind) throw new ForbiddenError('This player is banned from the game; their rewards cannot be claimed.', 'player_banned');
}
