import { LRUCache } from 'lru-cache';
import type { Leaderboard, RewardsBy } from '../leaderboards/leaderboard-store.js';
import type { ClaimStore } from './claim-store.js';
import { bandsOf, rewardOf, type RewardBand } from './rewards.js';
import { windowOf, windowState } from './window.js';

/** What a player record of a closed or archived season shows of its reward. */
export interface RecordReward {
  /** The claimed reward once claimed (frozen), else the band of the rank shown; null without one. */
  reward: object | null;
  rewardClaimedAt: Date | null;
}

/**
 * The bands a season is read with, and a record's reward. An archived season keeps the bands it
 * ended with (its archive's settings), which never change: they are cached per process.
 */
export class RewardReads {
  private readonly archived = new LRUCache<string, SeasonRewards>({ max: 10_000 });

  constructor(private readonly claims: ClaimStore) {}

  /** The bands of `season` of the board whose current season is `currentSeason`, and which rank they read. */
  async bandsOf(board: Leaderboard, season: number, currentSeason: number): Promise<SeasonRewards> {
    if (season >= currentSeason) return { bands: board.rewards, by: board.rewardsBy };
    const key = `${board.internalId}:${season}`;
    const cached = this.archived.get(key);
    if (cached) return cached;
    const stored = await this.claims.archivedBands(board.internalId, season);
    // Ended but not archived yet: it will be archived with the board's settings.
    if (stored === undefined) return { bands: board.rewards, by: board.rewardsBy };
    const rewards = { bands: bandsOf(stored.bands), by: stored.by };
    this.archived.set(key, rewards);
    return rewards;
  }

  /**
   * The reward a record of `season` shows for its rank (or, on a board whose rewards follow group
   * ranks, its rank within the group; none without one): undefined while the season is open; on a
   * board without bands, null without a lookup.
   */
  async ofRecord(
    board: Leaderboard,
    season: number,
    playerId: string,
    ranks: { rank: number; groupRank: number | null | undefined },
  ): Promise<RecordReward | undefined> {
    const current = board.season;
    if (season >= current && windowState(windowOf(board, current, board.seasonStartedAt), Date.now()) !== 'closed') return undefined;
    const { bands, by } = await this.bandsOf(board, season, current);
    if (bands.length === 0) return { reward: null, rewardClaimedAt: null };
    const claim = await this.claims.find(board.internalId, season, playerId);
    if (claim) return { reward: claim.reward, rewardClaimedAt: claim.claimedAt };
    const rank = rewardRank(by, ranks);
    return { reward: rank === undefined ? null : rewardOf(bands, rank), rewardClaimedAt: null };
  }
}

/** A season's reward bands and which rank they read. */
export interface SeasonRewards {
  bands: RewardBand[];
  by: RewardsBy;
}

/** The rank the bands read: the board's, or the group's (undefined for a player in no group or without a score there). */
export function rewardRank(by: RewardsBy, ranks: { rank: number; groupRank: number | null | undefined }): number | undefined {
  return by === 'group_rank' ? (ranks.groupRank ?? undefined) : ranks.rank;
}
