import { LEAGUE_EXAMPLE } from '../../api/routes/leaderboard-settings.js';
import { api } from '../helpers/context.js';
import {
  createClan,
  createGame,
  createLeaderboard,
  createThirdPartyKey,
  createWebhookWithDelivery,
  joinClan,
  reportScore,
  secretKey,
  serverReport,
  signup,
  uniqueId,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';

/**
 * A game to fuzz, built so that even a valid score report changes nothing: on every leaderboard
 * `player` already holds the best score a report could reach (the bound, or the largest double).
 * Fuzzed reports are made as `player`, so "nothing changed" is the property for every score, however
 * hostile; `rival` (below the top) is only ever read.
 */
export interface FuzzWorld {
  game: TestGame;
  /** desc, scores 0-100. */
  board: string;
  /** desc, unbounded: player holds Number.MAX_VALUE. */
  open: string;
  /** asc, unbounded: player holds -Number.MAX_VALUE. */
  lowest: string;
  /** clan leaderboard, desc, scores 0-100. */
  clanBoard: string;
  clan: string;
  device: string;
  player: TestPlayer;
  rival: TestPlayer;
  /** A player without any score. */
  unscored: TestPlayer;
  steamId: string;
  apiKey: string;
  keyId: string;
  webhookId: string;
  deliveryId: number;
  /** A held score of the unscored player, on a board of its own with review rules. */
  reviewId: string;
}

export async function buildFuzzWorld(): Promise<FuzzWorld> {
  const game = await createGame();
  const [board, open, lowest, clanBoard, clan] = await Promise.all([
    createLeaderboard(game, { min_score: 0, max_score: 100 }),
    createLeaderboard(game),
    createLeaderboard(game, { sort_order: 'asc' }),
    // A league too (the settings' example), so its group reads answer: its players are in group 1.
    createLeaderboard(game, { type: 'clan', min_score: 0, max_score: 100, groups: LEAGUE_EXAMPLE }),
    createClan(game),
  ]);
  const device = uniqueId('device');
  const [player, rival, unscored] = await Promise.all([signup(game, device), signup(game), signup(game)]);
  const steamId = uniqueId('steam');
  await api()
    .patch(`/api/v1/server/players/${player.playerId}`)
    .set(secretKey(game))
    .send({ clan_id: clan, aliases: { steam: steamId } })
    .expect(200);
  await joinClan(game, clan, [rival]);
  await serverReport(game, player.playerId, [100, Number.MAX_VALUE, -Number.MAX_VALUE, 100], [board, open, lowest, clanBoard]);
  await serverReport(game, rival.playerId, [40, 40, 40, 40], [board, open, lowest, clanBoard]);
  const { apiKey, keyId } = await createThirdPartyKey(game);
  const { webhookId, deliveryId } = await createWebhookWithDelivery(game, {
    url: 'https://hooks.example.com/fuzz',
    leaderboard_ids: [board],
  });
  const reviewBoard = await createLeaderboard(game, { review: { above: 0 } });
  await reportScore(game, unscored, reviewBoard, 1).expect(200);
  const { body: queue } = await api().get(`/api/v1/server/reviews?leaderboard_id=${reviewBoard}`).set(secretKey(game)).expect(200);
  const reviewId: string = queue.reviews[0].review_id;
  return {
    game,
    board,
    open,
    lowest,
    clanBoard,
    clan,
    device,
    player,
    rival,
    unscored,
    steamId,
    apiKey,
    keyId,
    webhookId,
    deliveryId,
    reviewId,
  };
}
