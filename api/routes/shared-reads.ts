import type { Request } from 'express';
import { ValidationError } from '../../engine/errors.js';
import type { ListedPlayers } from '../../engine/reads/leaderboard-reader.js';
import { listRanksView, pageView, seasonListView } from '../views.js';
import type { AppContext } from './endpoint.js';
import type { pageQuery, Value } from './schemas.js';

// Reads that several audiences' routes answer alike (game clients, the game server, third parties).

/** A page of a leaderboard: game clients and third parties read the same one. */
export async function leaderboardPage(app: AppContext, gameId: string, leaderboardId: string, query: Value<typeof pageQuery>) {
  const { limit, offset, clan, season } = query;
  const page = await app.engine.reader.page(gameId, leaderboardId, clan ? 'clans' : 'players', offset, limit, season);
  return { status: 200 as const, body: pageView(app.engine.config.baseUrl, page, limit, offset) };
}

/** A page of a leaderboard's seasons: the game server and third parties read the same one. */
export async function seasonList(
  app: AppContext,
  gameId: string,
  leaderboardId: string,
  { limit, offset }: { limit: number; offset: number },
) {
  const board = await app.engine.leaderboards.get(gameId, leaderboardId);
  return { status: 200 as const, body: seasonListView(board, await app.engine.seasons.list(board), limit, offset) };
}

/** What the three list-ranks endpoints answer, for their documentation. */
export const LIST_RANKS =
  "The entries of the listed players in the leaderboard's order, each with its rank on the whole leaderboard (rank) and among the entries found (list_rank), by the leaderboard's tie rule (shared: tied entries share a rank; earliest: 1, 2, 3). not_found lists the asked ids, as asked, that hold no entry: unknown players, players without a score, banned and erased players alike. 1-100 distinct ids (duplicates dropped); the query string at most 8 KiB. One Redis round trip and at most one PostgreSQL query, whatever the size of the leaderboard.";

/** The longest query string a list of ranks takes (100 alias ids of up to 128 characters fit). */
const MAX_LIST_QUERY_BYTES = 8192;

/**
 * The ranks of a list of players on a leaderboard: game clients, the game server and third parties
 * read the same one; `viewer` (a client's own player) is always in the list, and sees their own held
 * score in it (docs/review.md).
 */
export async function listRanks(
  app: AppContext,
  req: Request,
  gameId: string,
  leaderboardId: string,
  listed: ListedPlayers,
  season: number | undefined,
  viewer?: string,
) {
  const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '';
  if (Buffer.byteLength(query) > MAX_LIST_QUERY_BYTES) {
    throw new ValidationError(`The query string must be at most ${MAX_LIST_QUERY_BYTES} bytes.`, [
      { field: 'query', message: `must be at most ${MAX_LIST_QUERY_BYTES} bytes` },
    ]);
  }
  const ranks = await app.engine.reader.ranks(gameId, leaderboardId, listed, season, viewer);
  return { status: 200 as const, body: listRanksView(app.engine.config.baseUrl, ranks) };
}
