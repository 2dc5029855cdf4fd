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

/**
 * A client report with any body ({score, tiebreakers, metadata}), or a JSON text as given, for values
 * JSON.stringify cannot write (-0, 1e999, 9007199254740993).
 */
export function sendReport(game: TestGame, player: TestPlayer, leaderboardId: string, body: Record<string, unknown> | string) {
  const req = api()
    .post(`/api/v1/client/leaderboards/${leaderboardId}/report_score`)
    .set('Publishable-Key', game.publishableKey)
    .set('Anonymous-Authorization', player.token);
  if (typeof body === 'string') req.set('Content-Type', 'application/json');
  return req.send(body);
}

/** A server batch (POST /api/v1/server/report_scores) with any body, or a JSON text as given. */
export function sendBatch(game: TestGame, body: Record<string, unknown> | string) {
  const req = api().post('/api/v1/server/report_scores').set(secretKey(game));
  if (typeof body === 'string') req.set('Content-Type', 'application/json');
  return req.send(body);
}

/** The header a game's server sends. */
export function secretKey(game: TestGame): { 'Secret-Key': string } {
  return { 'Secret-Key': game.secretKey };
}

/** A player who chose a display name. */
export async function namedPlayer(game: TestGame, name: string): Promise<TestPlayer> {
  const player = await signup(game);
  await api()
    .patch('/api/v1/client/players/me')
    .set('Publishable-Key', game.publishableKey)
    .set('Anonymous-Authorization', player.token)
    .send({ display_name: name })
    .expect(200);
  return player;
}

/** Reports scores as the game's server: `scores[i]` on `leaderboardIds[i]`, in one batch. */
export async function serverReport(game: TestGame, playerId: string, scores: number[], leaderboardIds: string[]): Promise<void> {
  await api()
    .post('/api/v1/server/report_scores')
    .set(secretKey(game))
    .send({ player_id: playerId, scores, leaderboard_ids: leaderboardIds })
    .expect(200);
}

/** Reports each player's score on one leaderboard as the game's server, 25 requests at a time. */
export async function reportScores(game: TestGame, leaderboardId: string, scores: [TestPlayer, number][]): Promise<void> {
  for (let i = 0; i < scores.length; i += 25) {
    await Promise.all(scores.slice(i, i + 25).map(([player, score]) => serverReport(game, player.playerId, [score], [leaderboardId])));
  }
}

/** One new player per score, each holding that score on the leaderboard. */
export async function scoredPlayers(game: TestGame, leaderboardId: string, scores: number[]): Promise<TestPlayer[]> {
  const players = await signupMany(game, scores.length);
  await reportScores(
    game,
    leaderboardId,
    players.map((player, i) => [player, scores[i]!]),
  );
  return players;
}

export async function createClan(game: TestGame, id = uniqueId('clan'), name = `Clan ${id}`): Promise<string> {
  await api().put(`/api/v1/server/clans/${id}`).set(secretKey(game)).send({ name }).expect(201);
  return id;
}

/** Moves the players into the clan, or with `null` out of theirs. */
export async function joinClan(game: TestGame, clanId: string | null, players: TestPlayer[]): Promise<void> {
  for (const player of players) {
    await api().patch(`/api/v1/server/players/${player.playerId}`).set(secretKey(game)).send({ clan_id: clanId }).expect(200);
  }
}

export async function createThirdPartyKey(game: TestGame, name = 'integration'): Promise<{ apiKey: string; keyId: string }> {
  const res = await api().post('/api/v1/server/third_party_keys').set(secretKey(game)).send({ name }).expect(201);
  return { apiKey: res.body.api_key, keyId: res.body.key_id };
}

/**
 * A webhook of the game with one test event queued for it (no worker delivers it unless one runs):
 * its id, its first attempt's id and its secret.
 */
export async function createWebhookWithDelivery(
  game: TestGame,
  settings: { url: string; events?: string[]; leaderboard_ids?: string[] | null },
): Promise<{ webhookId: string; deliveryId: number; secret: string }> {
  const created = await api()
    .post('/api/v1/server/webhooks')
    .set(secretKey(game))
    .send({ events: ['season.ended'], ...settings })
    .expect(201);
  const webhookId: string = created.body.webhook_id;
  await api().post(`/api/v1/server/webhooks/${webhookId}/test`).set(secretKey(game)).expect(202);
  const log = await api().get(`/api/v1/server/webhooks/${webhookId}/deliveries`).set(secretKey(game)).expect(200);
  return { webhookId, deliveryId: log.body.deliveries[0].delivery_id, secret: created.body.secret };
}

/** The internal leaderboard (for reading Redis and PostgreSQL directly). */
export async function internalBoard(game: TestGame, leaderboardId: string) {
  const board = await testEngine()
    .leaderboards.get(game.gameId, leaderboardId)
    .catch(() => undefined);
  if (!board) throw new Error(`no leaderboard ${leaderboardId}`);
  return board;
}

/** A leaderboard's first 100 entries as a bot pages them: [id, score, rank] in order, and the total. */
export async function botPage(apiKey: string, leaderboardId: string): Promise<{ total: number; rows: [string, number, number][] }> {
  const { body } = await api().get(`/api/v1/third_party/leaderboards/${leaderboardId}?limit=100`).set('Api-Key', apiKey).expect(200);
  return {
    total: body.total,
    rows: body.entries.map((e: { player_id: string; score: number; rank: number }) => [e.player_id, e.score, e.rank]),
  };
}
