/**
 * Rewards: bands of ranks, each with the game's own reward object (docs/competitions.md, part 4). A
 * reward is never stored until it is claimed: every read of a closed or archived season computes it
 * from the rank it shows, so moderation moves it at once and tied players share a band.
 */

export interface RewardBand {
  rankFrom: number;
  rankTo: number;
  reward: object;
}

/** The reward of a rank, or null when no band holds it. */
export function rewardOf(bands: readonly RewardBand[], rank: number): object | null {
  return bands.find((band) => band.rankFrom <= rank && rank <= band.rankTo)?.reward ?? null;
}

/** Which band overlaps an earlier one, or which runs backwards (rank_to before rank_from); undefined when none. */
export function bandsProblem(bands: readonly RewardBand[]): { index: number; message: string } | undefined {
  for (const [index, band] of bands.entries()) {
    if (band.rankTo < band.rankFrom) return { index, message: 'rank_to must not be less than rank_from' };
    const overlapped = bands.findIndex((other, i) => i < index && other.rankFrom <= band.rankTo && band.rankFrom <= other.rankTo);
    if (overlapped !== -1) return { index, message: `overlaps rewards[${overlapped}]` };
  }
  return undefined;
}

/** The bands as the API and the archives name them. */
export function bandsView(bands: readonly RewardBand[]): { rank_from: number; rank_to: number; reward: object }[] {
  return bands.map((band) => ({ rank_from: band.rankFrom, rank_to: band.rankTo, reward: band.reward }));
}

/** Bands as the API and the archives name them, read back. */
export function bandsOf(stored: readonly { rank_from: number; rank_to: number; reward: object }[] | undefined): RewardBand[] {
  return (stored ?? []).map((band) => ({ rankFrom: band.rank_from, rankTo: band.rank_to, reward: band.reward }));
}
