/**
 * Leagues (docs/competitions.md, part 6): each season a board's players play in groups of their tier,
 * and at its end the best of each group move up a tier and the worst down one. This module holds the
 * settings and the one rule that says who moves, used by every read that shows a zone.
 */

export interface LeagueSettings {
  /** Most players in one group (5-1,000). */
  size: number;
  /** Tier names, lowest first (1-20). */
  tiers: string[];
  /** How many of each group move up, and down, at the season's end. */
  promote: number;
  relegate: number;
}

export type Zone = 'promote' | 'stay' | 'relegate';

/** The tier a zone moves a member of `tier` to (`leagueZones` never moves past the top or the lowest). */
export function tierAfter(tier: number, zone: Zone): number {
  return tier + { promote: 1, stay: 0, relegate: -1 }[zone];
}

/** A group's visible members: scored ones with their rank within the group; unscored ones rank last. */
export interface GroupStandings {
  ranked: { playerId: string; rank: number }[];
  unscored: string[];
}

/**
 * Who of a group moves at the season's end, as a zone per visible member (banned members are left
 * out by the caller). A group moves at most floor(visible / 2) players each way; a tie across a cut
 * moves all the tied players if that stays within the cap, else none of them. The top tier never
 * promotes, the lowest never relegates; an entered player without a score is never promoted and
 * ranks last for relegation.
 */
export function leagueZones(standings: GroupStandings, league: LeagueSettings, tier: number): Map<string, Zone> {
  const { ranked, unscored } = standings;
  const zones = new Map<string, Zone>();
  for (const { playerId } of ranked) zones.set(playerId, 'stay');
  for (const playerId of unscored) zones.set(playerId, 'stay');
  const cap = Math.floor(zones.size / 2);
  const last = ranked.length + 1;
  // Best first; unscored members share the last rank.
  const all = [...ranked, ...unscored.map((playerId) => ({ playerId, rank: last }))];

  if (tier < league.tiers.length - 1) {
    for (const playerId of cut(
      ranked,
      Math.min(league.promote, cap),
      cap,
      (rank, bound) => rank <= bound,
      (rank, bound) => rank < bound,
    ))
      zones.set(playerId, 'promote');
  }
  if (tier > 0) {
    const worstFirst = [...all].reverse();
    for (const playerId of cut(
      worstFirst,
      Math.min(league.relegate, cap),
      cap,
      (rank, bound) => rank >= bound,
      (rank, bound) => rank > bound,
    ))
      zones.set(playerId, 'relegate');
  }
  return zones;
}

/**
 * The members moved by a cut after `k` of `ordered` (nearest the moving end first): every member
 * ranked at or beyond the k-th's rank, if they fit within `cap`; else only those strictly beyond it.
 */
function cut(
  ordered: { playerId: string; rank: number }[],
  k: number,
  cap: number,
  within: (rank: number, bound: number) => boolean,
  beyond: (rank: number, bound: number) => boolean,
): string[] {
  if (k <= 0 || ordered.length === 0) return [];
  const bound = ordered[Math.min(k, ordered.length) - 1]!.rank;
  const candidates = ordered.filter((member) => within(member.rank, bound));
  const moving = candidates.length <= cap ? candidates : ordered.filter((member) => beyond(member.rank, bound));
  return moving.map((member) => member.playerId);
}
