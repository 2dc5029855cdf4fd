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
}

/**
 * Which season a read asks for: undefined for the current one. The read methods answer null when
 * Redis does not hold an asked season (it is archived in PostgreSQL, or never existed).
 */
export type AskedSeason = number | undefined;

export type Standings = 'players' | 'clans';

export interface RankedEntry {
  id: string;
  /** Exactly as Redis stores it; parseFloat gives back the very double. */
  score: string;
  rank: number;
  /** The score's metadata as JSON, '' for none (always '' for clans). */
  metadata: string;
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
}
