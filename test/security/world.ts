import { LEAGUE_EXAMPLE } from '../../api/routes/leaderboard-settings.js';
import { api } from '../helpers/context.js';
import { sessionHeaders } from '../dashboard/support.js';
import {
  createClan,
  createGame,
  createLeaderboard,
  createThirdPartyKey,
  createWebhookWithDelivery,
  reportScore,
  secretKey,
  serverReport,
  signup,
  uniqueId,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';

/**
 * A game with one of everything the API can name: a clan leaderboard with scores, a clan, two
 * players (one signed up with a known device), a live and a revoked third-party key. Every name it
 * stores carries `mark` and its scores are its own, so an answer holding another game's data shows.
 */
export interface GameWorld {
  game: TestGame;
  /** In the name of the game, its leaderboard, clan, players and keys. */
  mark: string;
  board: string;
  clan: string;
  device: string;
  /** Signed up with `device`, member of `clan`, scored `scores[0]` on `board`. */
  player: TestPlayer;
  /** Another player of the game, scored `scores[1]` (the higher: first). */
  other: TestPlayer;
  scores: [number, number];
  apiKey: string;
  keyId: string;
  /** A webhook of the game, its test event's first attempt (pending: the suites run no worker) and its URL. */
  webhookId: string;
  deliveryId: number;
  webhookUrl: string;
  /** A held score of `player` awaiting review, on a board of its own with review rules. */
  reviewId: string;
  revokedKey: string;
  revokedKeyId: string;
  /** A dashboard session signed in with the game's secret key: its Cookie header and CSRF token. */
  dashboard: { cookie: string; csrf: string };
}

/** Two worlds built with the same `device` hold the same device id in two games; give each its own scores. */
export async function buildGameWorld(device: string, scores: [number, number]): Promise<GameWorld> {
  const mark = uniqueId('world');
  const game = await createGame(`${mark} game`);
  // Season 1 ended with the same scores as the current one and rewards for both ranks: its claims succeed.
  // Its league moves put the better player a tier up, so this season each player plays in a group of their own.
  // Attempts are counted (far from their limit), so the board takes entries.
  const board = await createLeaderboard(game, {
    type: 'clan',
    name: `${mark} board`,
    rewards: [{ rank_from: 1, rank_to: 2, reward: { coins: 1 } }],
    max_attempts: 10_000,
    // The settings' example league (api/routes/leaderboard-settings.ts), so a PUT of the examples keeps it.
    groups: LEAGUE_EXAMPLE,
  });
  const clan = await createClan(game, uniqueId('clan'), `${mark} clan`);
  const player = await signup(game, device);
  const other = await signup(game);
  await api()
    .patch(`/api/v1/server/players/${player.playerId}`)
    .set(secretKey(game))
    .send({ clan_id: clan, display_name: `${mark} one` })
    .expect(200);
  await api()
    .patch(`/api/v1/server/players/${other.playerId}`)
    .set(secretKey(game))
    .send({ display_name: `${mark} two` })
    .expect(200);
  for (const season of [1, 2]) {
    await serverReport(game, player.playerId, [scores[0]], [board]);
    await serverReport(game, other.playerId, [scores[1]], [board]);
    if (season === 1) await api().post(`/api/v1/server/leaderboards/${board}/reset`).set(secretKey(game)).expect(200);
  }
  const { apiKey, keyId } = await createThirdPartyKey(game, `${mark} key`);
  const revoked = await createThirdPartyKey(game, `${mark} revoked`);
  await api().delete(`/api/v1/server/third_party_keys/${revoked.keyId}`).set(secretKey(game)).expect(204);
  // No mark in it: a request may send this URL to the other game, whose answer then shows it.
  const webhookUrl = `https://hooks.example.com/${uniqueId('hook')}`;
  const { webhookId, deliveryId } = await createWebhookWithDelivery(game, { url: webhookUrl, leaderboard_ids: [board] });
  const reviewBoard = await createLeaderboard(game, { name: `${mark} review board`, review: { above: 0 } });
  // Held at the player's own score: an answer showing it agrees with the world's record of them.
  await reportScore(game, player, reviewBoard, scores[0]).expect(200);
  const { body: queue } = await api().get(`/api/v1/server/reviews?leaderboard_id=${reviewBoard}`).set(secretKey(game)).expect(200);
  const dashboard = await sessionHeaders(game.secretKey);
  return {
    game,
    mark,
    board,
    clan,
    device,
    player,
    other,
    scores,
    apiKey,
    keyId,
    revokedKey: revoked.apiKey,
    revokedKeyId: revoked.keyId,
    webhookId,
    deliveryId,
    webhookUrl,
    reviewId: queue.reviews[0].review_id,
    dashboard,
  };
}

/** A token that looks right (it names a real player of the game) but was not signed by the service. */
export function forgedToken(world: GameWorld): string {
  const claims = {
    user_id: world.other.playerId,
    game_id: world.game.gameId,
    iat: Math.floor(Date.now() / 1000),
    sig: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  };
  return Buffer.from(JSON.stringify(claims), 'utf8').toString('base64');
}
