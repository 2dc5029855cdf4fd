import { LRUCache } from 'lru-cache';
import type { Leaderboard } from '../leaderboards/leaderboard-store.js';
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
  private readonly archived = new LRUCache<string, RewardBand[]>({ max: 10_000 });

  constructor(private readonly claims: ClaimStore) {}

  /** The bands of `season` of the board whose current season is `currentSeason`. */
  async bandsOf(board: Leaderboard, season: number, currentSeason: number): Promise<RewardBand[]> {
    if (season >= currentSeason) return board.rewards;
    const key = `${board.internalId}:${season}`;
    const cached = this.archived.get(key);
    if (cached) return cached;
    const stored = await this.claims.archivedBands(board.internalId, season);
    // Ended but not archived yet: it will be archived with the board's settings.
    if (stored === undefined) return board.rewards;
    const bands = bandsOf(stored);
    this.archived.set(key, bands);
    return bands;
  }

  /**
   * The reward a record of `season` shows for `rank`: undefined while the season is open; on a board
   * without bands, null without a lookup.
   */
  async ofRecord(board: Leaderboard, season: number, playerId: string, rank: number): Promise<RecordReward | undefined> {
    const current = board.season;
    if (season >= current && windowState(windowOf(board, current, board.seasonStartedAt), Date.now()) !== 'closed') return undefined;
    const bands = await this.bandsOf(board, season, current);
    if (bands.length === 0) return { reward: null, rewardClaimedAt: null };
    const claim = await this.claims.find(board.internalId, season, playerId);
    return claim ? { reward: claim.reward, rewardClaimedAt: claim.claimedAt } : { reward: rewardOf(bands, rank), rewardClaimedAt: null };
  }
}
