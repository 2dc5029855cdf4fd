import { pageView } from '../views.js';
import type { AppContext } from './endpoint.js';
import type { pageQuery, Value } from './schemas.js';

/** A page of a leaderboard: game clients and third parties read the same one. */
export async function leaderboardPage(app: AppContext, gameId: string, leaderboardId: string, query: Value<typeof pageQuery>) {
  const { limit, offset, clan } = query;
  const page = await app.engine.reader.page(gameId, leaderboardId, clan ? 'clans' : 'players', offset, limit);
  return { status: 200 as const, body: pageView(app.engine.config.baseUrl, page, limit, offset) };
}
