import DataLoader from 'dataloader';
import { NotFoundError } from '../errors.js';
import type { ArchivedEntry, ArchivedSeason, SeasonArchiveStore } from '../seasons/season-archive-store.js';
import type { BestRank, Rankings } from '../live/rankings.js';
import type { AskedSeason, RankedBoard, RankedEntry, Standings } from '../live/types.js';

/** An entry as read, with what an archived season froze beside its score. */
export interface SeasonEntry extends RankedEntry {
  /** Archived player entries: the player's clan when the season ended. */
  archivedClanId?: string | null;
  /** Archived clan entries: the members who scored that season. */
  archivedMemberCount?: number;
}

/** Redis does not hold the season asked for (the read goes on to PostgreSQL's archive). */
const NOT_HERE = Symbol('not here');
type Source<T> = () => Promise<T | typeof NOT_HERE>;

/** One member's entry in an archived season. */
interface ArchivedLookup {
  board: number;
  season: number;
  view: Standings;
  id: string;
}
/** The archived season and the member's entry (undefined: none shown); undefined when the season is not archived. */
type ArchivedOne = { season: ArchivedSeason; entry: ArchivedEntry | undefined } | undefined;

/**
 * Reads of any season: the current one and ended ones not yet archived come from Redis (one script,
 * which also says whether it holds the season), archived ones from PostgreSQL by index lookups.
 * A season found in neither is 404 season_not_found.
 */
export class SeasonReads {
  /**
   * Archived entries of one member each (record reads), batched: the record reads of one archived
   * season that arrive together share one statement, as live reads share the names lookup. One
   * statement per read cost PostgreSQL several times the CPU of its share of a batch
   * (docs/performance.md, archived reads).
   */
  private readonly archivedOnes = new DataLoader<ArchivedLookup, ArchivedOne>(
    async (lookups) => {
      const groups = new Map<string, ArchivedLookup[]>();
      for (const lookup of lookups) {
        const key = `${lookup.board}:${lookup.season}:${lookup.view}`;
        const group = groups.get(key);
        if (group) group.push(lookup);
        else groups.set(key, [lookup]);
      }
      const found = new Map<ArchivedLookup, ArchivedOne | Error>();
      await Promise.all(
        [...groups.values()].map(async (group) => {
          const { board, season, view } = group[0]!;
          const ids = [...new Set(group.map((lookup) => lookup.id))];
          try {
            const read = await this.deps.archives.entriesOf(board, season, view, ids);
            const entries = new Map(ids.map((id, i) => [id, read?.entries[i]]));
            for (const lookup of group) found.set(lookup, read && { season: read.season, entry: entries.get(lookup.id) });
          } catch (error) {
            for (const lookup of group) found.set(lookup, error as Error);
          }
        }),
      );
      return lookups.map((lookup) => found.get(lookup));
    },
    { cache: false, batchScheduleFn: (load) => setImmediate(load), maxBatchSize: 100 },
  );

  constructor(
    private readonly deps: {
      rankings: Rankings;
      archives: SeasonArchiveStore;
    },
  ) {}

  async page(
    board: RankedBoard,
    view: Standings,
    offset: number,
    limit: number,
    season: AskedSeason,
  ): Promise<{ total: number; entries: SeasonEntry[] }> {
    return this.either(
      board,
      season,
      async () => (await this.deps.rankings.page(board, view, offset, limit, season)) ?? NOT_HERE,
      async (asked) => {
        const archived = await this.deps.archives.page(board.internalId, asked, view, offset, limit);
        if (!archived) return NOT_HERE;
        return { total: view === 'clans' ? archived.season.clanTotal : archived.season.total, entries: archived.entries.map(entryOf) };
      },
    );
  }

  /**
   * Scores and ranks of the given members, and the season read; `archived` when the season was read
   * from its archive. `withBestRank`: the first player's best rank too, read with the entry (null
   * on an archive).
   */
  async scoresOf(
    board: RankedBoard,
    view: Standings,
    ids: string[],
    season: AskedSeason,
    withBestRank = false,
  ): Promise<{ total: number; season: number; entries: (SeasonEntry | undefined)[]; archived: boolean; bestRank?: BestRank | null }> {
    return this.either<{
      total: number;
      season: number;
      entries: (SeasonEntry | undefined)[];
      archived: boolean;
      bestRank?: BestRank | null;
    }>(
      board,
      season,
      async () => {
        const found = await this.deps.rankings.scoresOf(board, view, ids, season, withBestRank);
        return found ? { ...found, archived: false } : NOT_HERE;
      },
      async (asked) => {
        const archived =
          ids.length === 1
            ? await this.archivedOnes
                .load({ board: board.internalId, season: asked, view, id: ids[0]! })
                .then((one) => one && { season: one.season, entries: [one.entry] })
            : await this.deps.archives.entriesOf(board.internalId, asked, view, ids);
        if (!archived) return NOT_HERE;
        return {
          total: view === 'clans' ? archived.season.clanTotal : archived.season.total,
          season: asked,
          entries: archived.entries.map((entry) => entry && entryOf(entry)),
          archived: true,
        };
      },
    );
  }

  /** The player's entry with up to `range` entries above and below; undefined when they have no score that season. */
  async around(
    board: RankedBoard,
    playerId: string,
    range: number,
    season: AskedSeason,
  ): Promise<{ total: number; entries: SeasonEntry[] } | undefined> {
    return this.either(
      board,
      season,
      async () => {
        const found = await this.deps.rankings.around(board, playerId, range, season);
        return found === null ? NOT_HERE : found;
      },
      async (asked) => {
        const archived = await this.deps.archives.around(board.internalId, asked, playerId, range);
        if (!archived) return NOT_HERE;
        if (archived.entries.length === 0) return undefined;
        return { total: archived.season.total, entries: archived.entries.map(entryOf) };
      },
    );
  }

  /**
   * An archived clan's members: the players who scored for it that season, in the season's order,
   * with their rank within the clan. Undefined when the season is not archived.
   */
  async archivedClanMembers(board: RankedBoard, clanId: string, season: number) {
    const archived = await this.deps.archives.clanMembers(board.internalId, season, clanId);
    return archived?.members.map((member) => ({ ...entryOf(member), clanRank: member.clanRank }));
  }

  /**
   * Runs the read on Redis or on the archive, whichever holds the season; the other is tried next
   * (an ended season may be archived, and its Redis keys dropped, between the two), then the first
   * again. Seasons older than the current one are most likely archived: PostgreSQL is asked first.
   */
  private async either<T>(
    board: RankedBoard,
    season: AskedSeason,
    live: Source<T>,
    archived: (season: number) => Promise<T | typeof NOT_HERE>,
  ): Promise<T> {
    if (season === undefined) {
      const value = await live();
      if (value === NOT_HERE) throw new Error('the current season is always in Redis');
      return value;
    }
    const fromArchive = () => archived(season);
    const order = season < board.season ? [fromArchive, live, fromArchive] : [live, fromArchive, live];
    for (const source of order) {
      const value = await source();
      if (value !== NOT_HERE) return value;
    }
    throw new NotFoundError('season_not_found', `This leaderboard has no season ${season} (it never existed, or is no longer kept).`);
  }
}

function entryOf(entry: ArchivedEntry): SeasonEntry {
  return {
    id: entry.id,
    score: String(entry.score),
    rank: entry.rank,
    archivedClanId: entry.clanId,
    archivedMemberCount: entry.memberCount,
    metadata: entry.metadata,
    tiebreakers: entry.tiebreakers,
    achievedAt: entry.achievedAt,
    position: entry.position,
  };
}
