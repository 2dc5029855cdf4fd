import type { OrderedBoard } from '../live/types.js';

/** What an entry of a board shows of its order beyond the score (docs/ordering.md). */
export interface TieFields {
  /** On boards with tiebreaker columns. */
  tiebreakers?: number[];
  /** When the entry was reached (ms), on 'earliest' boards. */
  achievedAt?: number;
}

/** The tie fields a board's entries show: tiebreakers where it has columns, the time where it is 'earliest'. */
export function tieFieldsOf(board: OrderedBoard, entry: { tiebreakers: number[]; achievedAt: number | undefined }): TieFields {
  const fields: TieFields = {};
  if (board.tiebreakers.length > 0) fields.tiebreakers = entry.tiebreakers;
  if (board.tieBreak === 'earliest' && entry.achievedAt !== undefined) fields.achievedAt = entry.achievedAt;
  return fields;
}

/**
 * Why a report's tiebreakers do not fit the board, or undefined: one finite number per column on a
 * board with columns; none (or an empty list) on a board without.
 */
export function tiebreakersProblem(board: OrderedBoard & { id: string }, tiebreakers: number[] | null | undefined): string | undefined {
  const columns = board.tiebreakers;
  if (columns.length === 0) {
    return tiebreakers && tiebreakers.length > 0 ? `must be left out: leaderboard '${board.id}' has no tiebreakers` : undefined;
  }
  if (!tiebreakers || tiebreakers.length !== columns.length) {
    const names = columns.map((column) => column.name).join(', ');
    return `must hold ${columns.length} number${columns.length === 1 ? '' : 's'} on leaderboard '${board.id}', one per tiebreaker (${names})`;
  }
  return undefined;
}

/**
 * Ranks within a subset of a board's entries (a list of players, a clan's members) by the board's
 * tie rule, from their ranks on the whole board: 1 + the entries of the subset ranked strictly
 * better. On 'earliest' boards every rank is distinct, so this is the position; on 'shared' ones
 * entries of equal rank are exactly the tied ones, and share it.
 */
export function ranksWithin(boardRanks: number[]): number[] {
  const sorted = [...boardRanks].sort((a, b) => a - b);
  const firstAt = new Map<number, number>();
  sorted.forEach((rank, i) => {
    if (!firstAt.has(rank)) firstAt.set(rank, i + 1);
  });
  return boardRanks.map((rank) => firstAt.get(rank)!);
}
