import { testStores } from '../helpers/context.js';

/**
 * Everything a game has stored: its rows in PostgreSQL and the live rankings of its leaderboards in
 * Redis. Two snapshots deep-equal exactly when a request changed nothing the game owns.
 */
export interface GameState {
  rows: Record<string, unknown[]>;
  rankings: Record<string, { scores: string[]; clans: string[]; clanState: Record<string, string>; members: Record<string, string> }>;
}

const TABLES: Record<string, string> = {
  games: 'SELECT * FROM games WHERE id = $1',
  leaderboards: 'SELECT * FROM leaderboards WHERE game_id = $1 ORDER BY internal_id',
  players: 'SELECT * FROM players WHERE game_id = $1 ORDER BY id',
  clans: 'SELECT * FROM clans WHERE game_id = $1 ORDER BY clan_id',
  player_aliases: 'SELECT * FROM player_aliases WHERE game_id = $1 ORDER BY alias_type, alias_id',
  third_party_keys: 'SELECT * FROM third_party_keys WHERE game_id = $1 ORDER BY id',
  webhooks: 'SELECT * FROM webhooks WHERE game_id = $1 ORDER BY id',
  webhook_events: 'SELECT * FROM webhook_events WHERE game_id = $1 ORDER BY id',
  webhook_deliveries: `SELECT d.* FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
                       WHERE w.game_id = $1 ORDER BY d.id`,
  // A refused change records nothing either.
  audit_log: 'SELECT * FROM audit_log WHERE game_id = $1 ORDER BY id',
  scores: `SELECT s.* FROM scores s JOIN leaderboards l ON l.internal_id = s.leaderboard_internal_id
           WHERE l.game_id = $1 ORDER BY s.leaderboard_internal_id, s.player_id`,
  clan_scores: `SELECT c.* FROM clan_scores c JOIN leaderboards l ON l.internal_id = c.leaderboard_internal_id
                WHERE l.game_id = $1 ORDER BY c.leaderboard_internal_id, c.clan_id`,
};

export async function snapshotGame(gameId: string): Promise<GameState> {
  const { pool, redis, keys: keysOf, memberKey } = testStores();
  const tables = await Promise.all(
    Object.entries(TABLES).map(async ([table, sql]) => [table, (await pool.query(sql, [gameId])).rows] as const),
  );
  const rows = Object.fromEntries(tables);
  const boards = rows.leaderboards as { internal_id: number }[];
  const players = (rows.players as { id: string }[]).map((player) => player.id);
  const rankings = await Promise.all(
    boards.map(async (board) => {
      const internal = { internalId: board.internal_id };
      const keys = keysOf(internal);
      // The game's players' memberships, looked up where the engine keeps each (reading all 16,384
      // member hashes per snapshot would dominate the matrix's run time).
      const [scores, clans, clanState, memberClans] = await Promise.all([
        redis.zrange(keys.scores, '0', '-1', 'WITHSCORES'),
        redis.zrange(keys.clans, '0', '-1', 'WITHSCORES'),
        redis.hgetall(keys.clanState),
        Promise.all(players.map((player) => redis.hget(memberKey(internal, player), player))),
      ]);
      const members = Object.fromEntries(players.flatMap((player, i) => (memberClans[i] ? [[player, memberClans[i]]] : [])));
      return [String(board.internal_id), { scores, clans, clanState, members }] as const;
    }),
  );
  return { rows, rankings: Object.fromEntries(rankings) };
}

/** Snapshots of several games at once (the matrix watches the game under test and the other one). */
export function snapshotGames(gameIds: string[]): Promise<GameState[]> {
  return Promise.all(gameIds.map(snapshotGame));
}
