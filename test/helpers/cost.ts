import pg from 'pg';
import request from 'supertest';
import { testEngine } from './context.js';
import type { TestGame, TestPlayer } from './fixtures.js';
import { inParallel } from './persistence.js';
import { startApi } from './processes.js';

/**
 * Counts what the in-process engine sends while `work` runs: the Redis commands naming one board's
 * keys, and every PostgreSQL query. For tests of what a read costs.
 */
export async function counting<T>(
  board: { internalId: number },
  work: () => Promise<T>,
): Promise<{ result: T; commands: string[]; queries: string[] }> {
  const redis = testEngine().redis as unknown as {
    sendCommand: (command: { name: string; args: unknown[] }, ...rest: unknown[]) => unknown;
  };
  const client = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const sendCommand = redis.sendCommand;
  const query = client.query;
  const commands: string[] = [];
  const queries: string[] = [];
  const tag = `:lb:{${board.internalId}}`;
  redis.sendCommand = function (this: unknown, command, ...rest) {
    const text = `${command.name} ${command.args.map((arg) => String(arg)).join(' ')}`;
    if (text.includes(tag)) commands.push(text.slice(0, 200));
    return sendCommand.call(this, command, ...rest);
  };
  client.query = function (this: unknown, ...args: unknown[]) {
    const [first] = args;
    queries.push(String(typeof first === 'object' && first !== null && 'text' in first ? first.text : first).slice(0, 200));
    return query.apply(this, args);
  };
  try {
    return { result: await work(), commands, queries };
  } finally {
    redis.sendCommand = sendCommand;
    client.query = query;
  }
}

/**
 * Players signed up, named (`${name} ${i}`) and scored on one board (the report body `score(i)`)
 * through another API process, so this process holds none of their profiles: its reads must look
 * their names up in PostgreSQL. In the order of i.
 */
export async function playersNotCachedHere(
  game: TestGame,
  leaderboardId: string,
  count: number,
  name: string,
  report: (i: number) => Record<string, unknown>,
): Promise<{ player: TestPlayer; name: string }[]> {
  const other = await startApi();
  try {
    return await inParallel(
      Array.from({ length: count }, (_, i) => async () => {
        const up = await request(other.url)
          .post('/api/v1/signup/anonymous')
          .set('Publishable-Key', game.publishableKey)
          .send({})
          .expect(201);
        const player: TestPlayer = { playerId: up.body.player_id, token: up.body.token };
        const headers = { 'Publishable-Key': game.publishableKey, 'Anonymous-Authorization': player.token };
        const named = `${name} ${i}`;
        await request(other.url).patch('/api/v1/client/players/me').set(headers).send({ display_name: named }).expect(200);
        await request(other.url).post(`/api/v1/client/leaderboards/${leaderboardId}/report_score`).set(headers).send(report(i)).expect(200);
        return { player, name: named };
      }),
      10,
    );
  } finally {
    await other.stop();
  }
}
