import { pageView, seasonListView } from '../views.js';
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
