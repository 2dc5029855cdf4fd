import { expect } from 'chai';

/**
 * The test's own model of a leaderboard with tie-breaking (README, "Ties"): entries ordered by
 * score in the board's order, then each tiebreaker in its own direction, then on `earliest`
 * boards by the time each entry was reached; ranks shared by entries equal on score and every
 * tiebreaker (`shared`), or the position (`earliest`). The service breaks what is still equal after
 * that by a fixed order of its own, which the model does not know: the checks below accept any order
 * among such entries and compare the reads with one another to see that it is the same everywhere.
 */
export type Direction = 'desc' | 'asc';
export type TieBreak = 'shared' | 'earliest';
export type Rule = 'best' | 'latest' | 'sum';

export interface TieSettings {
  sortOrder: Direction;
  tieBreak: TieBreak;
  /** One direction per tiebreaker column, 0-4 of them. */
  columns: Direction[];
  rule: Rule;
}

/** The body of PUT /api/v1/server/leaderboards/:id for these settings; the columns are named col_0… */
export function settingsBody(settings: TieSettings, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    sort_order: settings.sortOrder,
    tie_break: settings.tieBreak,
    update_strategy: settings.rule,
    tiebreakers: settings.columns.map((sort_order, i) => ({ name: `col_${i}`, sort_order })),
    ...extra,
  };
}

export interface TieEntry {
  score: number;
  tiebreakers: number[];
  /** ms since the epoch, as the report's answer gave it (earliest boards only). */
  achievedAt?: number;
}

/** The service treats -0 as 0 (they tie, and -0 may read back as 0); so does every comparison here. */
export const plainZero = (value: number): number => (value === 0 ? 0 : value);

/** ISO 8601 UTC with milliseconds, as the service writes every achieved_at. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** What a read shows of one entry (any of the shapes: record, list entry, member, list ranks). */
export interface ShownEntry {
  player_id: string;
  score: number | null;
  rank: number | null;
  tiebreakers?: number[];
  achieved_at?: string;
  list_rank?: number;
  clan_rank?: number | null;
}

function byDirection(a: number, b: number, direction: Direction): number {
  if (a === b) return 0; // -0 === 0
  return (direction === 'desc' ? a > b : a < b) ? -1 : 1;
}

export class TieModel {
  readonly entries = new Map<string, TieEntry>();

  constructor(readonly settings: TieSettings) {}

  get earliest(): boolean {
    return this.settings.tieBreak === 'earliest';
  }

  /** Negative when `a` goes ahead of `b` on score and tiebreakers; 0 when they are equal on all of them. */
  compareValues(a: TieEntry, b: TieEntry): number {
    const byScore = byDirection(a.score, b.score, this.settings.sortOrder);
    if (byScore !== 0) return byScore;
    for (const [i, direction] of this.settings.columns.entries()) {
      const byColumn = byDirection(a.tiebreakers[i]!, b.tiebreakers[i]!, direction);
      if (byColumn !== 0) return byColumn;
    }
    return 0;
  }

  /** compareValues, then (earliest) the earlier time first; 0 when only the fixed order can tell them apart. */
  compare(a: TieEntry, b: TieEntry): number {
    const byValues = this.compareValues(a, b);
    if (byValues !== 0 || !this.earliest) return byValues;
    return Math.sign(a.achievedAt! - b.achievedAt!);
  }

  /**
   * Applies a report by the board's rule. `replaced`: the kept entry (and so its time) is the
   * report's now; `improved`: what the answer must say, undefined where the rules leave it open (an
   * identical report on a `latest` earliest board, which moves only the time).
   */
  report(player: string, score: number, tiebreakers: number[]): { replaced: boolean; improved: boolean | undefined; kept: TieEntry } {
    const before = this.entries.get(player);
    const submitted: TieEntry = { score, tiebreakers };
    let replaced: boolean;
    let improved: boolean | undefined;
    if (this.settings.rule === 'best') {
      replaced = !before || this.compareValues(submitted, before) < 0;
      improved = replaced;
    } else if (this.settings.rule === 'latest') {
      replaced = true;
      const same = before !== undefined && this.compareValues(submitted, before) === 0;
      improved = !same ? true : this.earliest ? undefined : false;
    } else {
      submitted.score = (before?.score ?? 0) + score;
      replaced = !before || submitted.score !== before.score;
      improved = replaced;
    }
    if (replaced) this.entries.set(player, { ...submitted, achievedAt: before?.achievedAt });
    return { replaced, improved, kept: this.entries.get(player)! };
  }

  /** Records the time the service gave the player's kept entry. */
  setTime(player: string, achievedAt: number): void {
    this.entries.get(player)!.achievedAt = achievedAt;
  }

  remove(player: string): void {
    this.entries.delete(player);
  }

  /** A copy of the model without these players (what reads show once they are withdrawn). */
  without(players: Iterable<string>): TieModel {
    const gone = new Set(players);
    const copy = new TieModel(this.settings);
    for (const [player, entry] of this.entries) if (!gone.has(player)) copy.entries.set(player, { ...entry });
    return copy;
  }

  /**
   * The ranks the player's entry may hold: exactly one on `shared` boards (1 + the entries strictly
   * better on score and tiebreakers); on `earliest` boards the positions from 1 + the entries strictly
   * ahead to that plus the entries reached in the same millisecond with the same values.
   */
  rankRange(player: string): [number, number] {
    const mine = this.entries.get(player)!;
    let ahead = 0;
    let level = 0;
    for (const [other, entry] of this.entries) {
      if (other === player) continue;
      const order = this.compare(entry, mine);
      if (order < 0) ahead += 1;
      else if (order === 0) level += 1;
    }
    return this.earliest ? [ahead + 1, ahead + 1 + level] : [ahead + 1, ahead + 1];
  }

  /** Competition rank on score and tiebreakers (shared boards' rank, clan standings aside). */
  sharedRank(player: string, among: Iterable<string> = this.entries.keys()): number {
    const mine = this.entries.get(player)!;
    let better = 0;
    for (const other of among) if (other !== player && this.compareValues(this.entries.get(other)!, mine) < 0) better += 1;
    return better + 1;
  }

  /** Checks one shown entry's values (score, tiebreakers, achieved_at) against the model's, and that a board without them shows no such field. */
  expectValues(shown: ShownEntry, label: string): void {
    const entry = this.entries.get(shown.player_id);
    expect(entry, `${label}: ${shown.player_id} holds an entry in the model`).to.not.equal(undefined);
    expect(plainZero(shown.score!), `${label}: score`).to.equal(plainZero(entry!.score));
    if (this.settings.columns.length > 0) {
      expect(shown.tiebreakers?.map(plainZero), `${label}: tiebreakers`).to.deep.equal(entry!.tiebreakers.map(plainZero));
    } else {
      expect(shown, `${label}: no tiebreakers on a board without columns`).to.not.have.property('tiebreakers');
    }
    if (this.earliest) {
      expect(shown.achieved_at, `${label}: achieved_at`).to.match(ISO_MS);
      if (entry!.achievedAt !== undefined) expect(Date.parse(shown.achieved_at!), `${label}: achieved_at`).to.equal(entry!.achievedAt);
    } else {
      expect(shown, `${label}: no achieved_at on a shared board`).to.not.have.property('achieved_at');
    }
  }

  /**
   * Checks a list read from `offset` (a page, around_me, list ranks): every entry's values, the
   * model's order between neighbours, and the ranks (shared: the model's; earliest: the position).
   * `positions`: the entries' positions on the whole board when they are not consecutive.
   */
  expectList(shown: ShownEntry[], label: string, { offset = 0, positions }: { offset?: number; positions?: number[] } = {}): void {
    for (const [i, entry] of shown.entries()) {
      this.expectValues(entry, `${label} #${i}`);
      if (i > 0) {
        const order = this.compare(this.entries.get(shown[i - 1]!.player_id)!, this.entries.get(entry.player_id)!);
        expect(order, `${label}: #${i - 1} (${shown[i - 1]!.player_id}) goes ahead of or ties #${i} (${entry.player_id})`).to.be.at.most(0);
      }
      const [low, high] = this.rankRange(entry.player_id);
      expect(entry.rank, `${label} #${i} rank`).to.be.within(low, high);
      if (this.earliest) expect(entry.rank, `${label} #${i}: rank is the position`).to.equal((positions?.[i] ?? offset + i) + 1);
    }
  }

  /** The whole board, read in order: exactly the model's players, in the model's order, with its ranks. */
  expectBoard(shown: ShownEntry[], label: string): void {
    expect(shown.map((e) => e.player_id).sort(), `${label}: the players listed`).to.deep.equal([...this.entries.keys()].sort());
    this.expectList(shown, label);
  }

  /**
   * The list ranks the service must give the entries found for `asked`, in the board's order as
   * `board` (a whole-board read) shows it: shared → 1 + the found entries strictly better on score
   * and tiebreakers; earliest → the position among them.
   */
  listRanks(board: ShownEntry[], asked: Iterable<string>): { player_id: string; list_rank: number; rank: number }[] {
    const wanted = new Set(asked);
    const found = board.filter((e) => wanted.has(e.player_id));
    const ids = found.map((e) => e.player_id);
    return found.map((e, i) => ({
      player_id: e.player_id,
      list_rank: this.earliest ? i + 1 : this.sharedRank(e.player_id, ids),
      rank: e.rank!,
    }));
  }
}

/** The order in which a whole-board read lists these players (the service's fixed order included). */
export function inBoardOrder(board: ShownEntry[], players: Iterable<string>): string[] {
  const wanted = new Set(players);
  return board.map((e) => e.player_id).filter((id) => wanted.has(id));
}

/** The query string of a list-ranks request for these player ids. */
export function playerIdsQuery(ids: string[]): string {
  return `player_ids=${ids.map(encodeURIComponent).join(',')}`;
}
