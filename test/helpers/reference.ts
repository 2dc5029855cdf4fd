/**
 * The test's own model of a leaderboard: best scores kept in plain JavaScript, ranked by competition
 * ranking (rank = 1 + the number of strictly better scores), to compare the service against.
 */
export class ReferenceBoard {
  readonly best = new Map<string, number>();

  constructor(readonly order: 'desc' | 'asc' = 'desc') {}

  report(player: string, score: number): void {
    const current = this.best.get(player);
    if (current === undefined || (this.order === 'desc' ? score > current : score < current)) this.best.set(player, score);
  }

  rank(player: string): number {
    const score = this.best.get(player)!;
    let better = 0;
    for (const other of this.best.values()) if (this.order === 'desc' ? other > score : other < score) better += 1;
    return better + 1;
  }

  /** Players best first; ties in the service's fixed order (reverse-lexicographic on desc, lexicographic on asc). */
  ordered(): { player: string; score: number; rank: number }[] {
    const sign = this.order === 'desc' ? -1 : 1;
    return [...this.best]
      .sort(([pa, a], [pb, b]) => (a !== b ? sign * (a - b) : sign * (pa < pb ? -1 : pa > pb ? 1 : 0)))
      .map(([player, score]) => ({ player, score, rank: this.rank(player) }));
  }
}

/** The test's own model of clan totals: each clan's total is the sum of its members' best scores. */
export class ReferenceClans {
  readonly board: ReferenceBoard;
  readonly clanOf = new Map<string, string | null>();

  constructor(order: 'desc' | 'asc' = 'desc') {
    this.board = new ReferenceBoard(order);
  }

  report(player: string, score: number): void {
    this.board.report(player, score);
  }

  join(player: string, clan: string | null): void {
    this.clanOf.set(player, clan);
  }

  /** A deleted clan leaves its members clanless. */
  remove(clan: string): void {
    for (const player of this.members(clan)) this.clanOf.set(player, null);
  }

  /** Every member, scored or not. */
  members(clan: string): string[] {
    return [...this.clanOf].filter(([, of]) => of === clan).map(([player]) => player);
  }

  /** Clans with at least one scored member, and their totals. */
  totals(): Record<string, number> {
    const totals: Record<string, number> = {};
    for (const [player, clan] of this.clanOf) {
      const best = this.board.best.get(player);
      if (clan && best !== undefined) totals[clan] = (totals[clan] ?? 0) + best;
    }
    return totals;
  }
}
