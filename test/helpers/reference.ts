/**
 * The test's own model of a leaderboard: best scores kept in plain JavaScript, ranked by the
 * contract's competition ranking, to compare the service against.
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
