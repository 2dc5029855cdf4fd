import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { api, testEngine } from './context.js';

/** Builders of valid test data through the public API: each test makes its own, with unique ids. */
export const ADMIN = { Authorization: 'Bearer test-admin-token-0123456789' };
export const METRICS = { Authorization: 'Bearer test-metrics-token-0123456789' };

export function uniqueId(prefix = 'id'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

export interface TestGame {
  gameId: string;
  publishableKey: string;
  secretKey: string;
}

export interface TestPlayer {
  playerId: string;
  token: string;
}

export async function createGame(name = uniqueId('game')): Promise<TestGame> {
  const res = await api().post('/api/v1/admin/games').set(ADMIN).send({ name }).expect(201);
  return { gameId: res.body.game_id, publishableKey: res.body.publishable_key, secretKey: res.body.secret_key };
}

export async function createLeaderboard(game: TestGame, settings: Record<string, unknown> = {}, id = uniqueId('lb')): Promise<string> {
  await api().put(`/api/v1/server/leaderboards/${id}`).set('Secret-Key', game.secretKey).send(settings).expect(201);
  return id;
}

export async function signup(game: TestGame, deviceId?: string): Promise<TestPlayer> {
  const res = await api()
    .post('/api/v1/signup/anonymous')
    .set('Publishable-Key', game.publishableKey)
    .send(deviceId ? { device_id: deviceId } : {});
  expect(res.status).to.be.oneOf([200, 201]);
  return { playerId: res.body.player_id, token: res.body.token };
}

export async function signupMany(game: TestGame, count: number): Promise<TestPlayer[]> {
  const players: TestPlayer[] = [];
  for (let i = 0; i < count; i += 20) {
    players.push(...(await Promise.all(Array.from({ length: Math.min(20, count - i) }, () => signup(game)))));
  }
  return players;
}

export function reportScore(game: TestGame, player: TestPlayer, leaderboardId: string, score: unknown) {
  return api()
    .post(`/api/v1/client/leaderboards/${leaderboardId}/report_score`)
    .set('Publishable-Key', game.publishableKey)
    .set('Anonymous-Authorization', player.token)
    .send({ score });
}

/** The internal leaderboard (for reading Redis and PostgreSQL directly). */
export async function internalBoard(game: TestGame, leaderboardId: string) {
  const board = await testEngine().leaderboards.get(game.gameId, leaderboardId).catch(() => undefined);
  if (!board) throw new Error(`no leaderboard ${leaderboardId}`);
  return board;
}
