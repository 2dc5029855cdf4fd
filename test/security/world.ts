import { api } from '../helpers/context.js';
import {
  createClan,
  createGame,
  createLeaderboard,
  createThirdPartyKey,
  joinClan,
  secretKey,
  serverReport,
  signup,
  uniqueId,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';

/**
 * A game with one of everything the API can name: a clan leaderboard with scores, a clan, two
 * players (one signed up with a known device), a live and a revoked third-party key.
 */
export interface GameWorld {
  game: TestGame;
  board: string;
  clan: string;
  device: string;
  /** Signed up with `device`, member of `clan`, scored 50 on `board`. */
  player: TestPlayer;
  /** Another player of the game, scored 70. */
  other: TestPlayer;
  apiKey: string;
  keyId: string;
  revokedKey: string;
}

/** Two worlds built with the same `device` hold the same device id in two games. */
export async function buildGameWorld(device = uniqueId('device')): Promise<GameWorld> {
  const game = await createGame();
  const board = await createLeaderboard(game, { type: 'clan' });
  const clan = await createClan(game);
  const player = await signup(game, device);
  const other = await signup(game);
  await joinClan(game, clan, [player]);
  await serverReport(game, player.playerId, [50], [board]);
  await serverReport(game, other.playerId, [70], [board]);
  const { apiKey, keyId } = await createThirdPartyKey(game);
  const revoked = await createThirdPartyKey(game, 'revoked');
  await api().delete(`/api/v1/server/third_party_keys/${revoked.keyId}`).set(secretKey(game)).expect(204);
  return { game, board, clan, device, player, other, apiKey, keyId, revokedKey: revoked.apiKey };
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
