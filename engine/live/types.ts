/**
 * The shapes the live layer works with. They are defined here, at the bottom, and the layers above
 * (stores, services, the API) import them from here.
 */

export type SortOrder = 'desc' | 'asc';

/** What a report does to the player's score: keep the better, replace it, or add to it. */
export type UpdateStrategy = 'best' | 'latest' | 'sum';

/** What a reset needs to know of a leaderboard. */
export interface SeasonedBoard {
  internalId: number;
  /** The current season as PostgreSQL knows it; Redis's own number wins once it has one. */
  season: number;
  /** When PostgreSQL says the current season started (Redis's own time wins once it has one). */
  seasonStartedAt: Date;
}

/** What the ranking core needs to know of a leaderboard. */
export interface RankedBoard extends SeasonedBoard {
  sortOrder: SortOrder;
}

/** What a report needs to know of a leaderboard. */
export interface ReportedBoard extends RankedBoard {
  updateStrategy: UpdateStrategy;
  /** Its one-off window and the season it belongs to (engine/competitions/window.ts); none when left out. */
  opensAt?: Date | null;
  closesAt?: Date | null;
  windowSeason?: number | null;
  /** How long each season accepts reports from its start (s); none when left out. */
  openSeconds?: number | null;
  /** Its entry rules (docs/competitions.md, part 3); none when left out. */
  joinRequired?: boolean;
  maxPlayers?: number | null;
  maxAttempts?: number | null;
  /** A league's groups: how many players each holds at most; none when left out. */
  groups?: { size: number } | null;
  /** Reports name the players they overtake within the first this many ranks (docs/events.md part 5); none when 0 or left out. */
  notifyTop?: number;
  /** Its review rules (docs/review.md); none when null or left out. */
  review?: { above: number | null; maxGainPerSecond: number | null; outlierFactor: number | null } | null;
}

/**
 * Which season a read asks for: undefined for the current one. The read methods answer null when
 * Redis does not hold an asked season (it is archived in PostgreSQL, or never existed).
 */
export type AskedSeason = number | undefined;

export type Standings = 'players' | 'clans';

/** An entry as Redis holds it. */
export interface EntryValue {
  id: string;
  /** Exactly as Redis stores it; parseFloat gives back the very double. */
  score: string;
  /** The score's metadata as JSON, '' for none (always '' for clans). */
  metadata: string;
  /** The entry's tiebreakers (empty on boards without any). */
  tiebreakers: number[];
  /** When the entry was reached (ms), on 'earliest' boards; else undefined. */
  achievedAt: number | undefined;
}

export interface RankedEntry extends EntryValue {
  /** The rank by the board's tie rule (docs/ordering.md). */
  rank: number;
  /** Where it stands in the board's order (only its order against other entries' means anything). */
  position: number;
}

/** How a board breaks ties (docs/ordering.md). */
export type TieBreak = 'shared' | 'earliest';

/** One tiebreaker column of a board. */
export interface TiebreakerColumn {
  name: string;
  sortOrder: SortOrder;
}

/** What decides a board's order: its sort order, tie rule and tiebreaker columns. */
export interface OrderedBoard {
  sortOrder: SortOrder;
  tieBreak: TieBreak;
  tiebreakers: TiebreakerColumn[];
}

/**
 * How Redis lays a board's entries out (engine/live/scripts/includes/entries.lua): '' for plain
 * boards ('shared' ties, no tiebreakers), else the tie rule, the order and each tiebreaker's
 * direction, one letter each ('ed', 'sdda').
 */
export function layoutOf(board: OrderedBoard): string {
  if (board.tieBreak === 'shared' && board.tiebreakers.length === 0) return '';
  const letter = (order: SortOrder) => (order === 'asc' ? 'a' : 'd');
  return `${board.tieBreak === 'earliest' ? 'e' : 's'}${letter(board.sortOrder)}${board.tiebreakers.map((column) => letter(column.sortOrder)).join('')}`;
}

/** An entry's metadata as read ('' for none). */
export function parseMetadata(json: string): object | null {
  return json === '' ? null : (JSON.parse(json) as object);
}

/** A score as PostgreSQL holds it, merged back into Redis by a rebuild. */
export interface PersistedScore {
  playerId: string;
  score: number;
  /** Compact JSON, '' for none. */
  metadata: string;
  /** Its tiebreakers (empty on boards without any). */
  tiebreakers: number[];
  /** When it was reached (ms), on 'earliest' boards. */
  achievedAt: number | null;
  /** The best rank the player's reports reached this season, as '<rank>:<ms>' ('' for none). */
  bestRank: string;
}

/** An entry's fields as the scripts reply them: tiebreakers comma-separated, the time in ms ('' for none). */
export function entryExtras(tiebreakers: string | number, achievedAt: string | number): Pick<RankedEntry, 'tiebreakers' | 'achievedAt'> {
  const text = String(tiebreakers);
  const at = String(achievedAt);
  return { tiebreakers: text === '' ? [] : text.split(',').map(Number), achievedAt: at === '' ? undefined : Number(at) };
}
