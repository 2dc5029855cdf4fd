import type { Engine } from '../engine.js';

export interface DemoGame {
  gameId: string;
  publishableKey: string;
  secretKey: string;
  leaderboardId: string;
}

/**
 * With no games in the database, creates a demo game with one leaderboard so a newcomer can try
 * every endpoint at once. An advisory lock keeps two processes starting together from making two.
 */
export async function ensureDemoGame(engine: Engine): Promise<DemoGame | undefined> {
  const client = await engine.pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock(hashtext('leaderboard:demo-game'))");
    if ((await engine.gameStore.count()) > 0) return undefined;
    const game = await engine.games.create('Demo game');
    await engine.leaderboards.put(game.id, 'demo', { name: 'Demo leaderboard' });
    return { gameId: game.id, publishableKey: game.publishableKey, secretKey: game.secretKey, leaderboardId: 'demo' };
  } finally {
    await client.query("SELECT pg_advisory_unlock(hashtext('leaderboard:demo-game'))").catch(() => undefined);
    client.release();
  }
}
