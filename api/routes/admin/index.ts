import Joi from 'joi';
import { createdGameView, gameView } from '../../views.js';
import { endpoint } from '../endpoint.js';
import { GameCreated, GameList, SecretKey } from '../responses.js';
import { listQuery, name, object } from '../schemas.js';

/** Games and their keys, for whoever runs the service (ADMIN_TOKEN). */
export const adminEndpoints = [
  endpoint({
    method: 'post',
    path: '/api/v1/admin/games',
    operationId: 'createGame',
    tag: 'Admin',
    summary: 'Create a game with its publishable and secret keys (the secret is shown once)',
    description:
      'Creates a game with a publishable key (pk_, for game clients) and a secret key (sk_, for the game server). The secret key is answered once; only its hash is stored.',
    credentials: 'admin',
    body: object({ name: name.example('Space Race') }),
    responses: { 201: { schema: GameCreated } },
    errors: [],
    async handler({ body, app }) {
      return { status: 201, body: createdGameView(await app.engine.games.create(body.name, 'admin')) };
    },
  }),

  endpoint({
    method: 'get',
    path: '/api/v1/admin/games',
    operationId: 'listGames',
    tag: 'Admin',
    summary: 'List games, oldest first, a page at a time',
    description: 'Every game with its publishable key (never the secret key), oldest first, `limit` at a time from `offset`.',
    credentials: 'admin',
    query: listQuery,
    responses: { 200: { schema: GameList } },
    errors: [400],
    async handler({ query: { limit, offset }, app }) {
      const { total, games } = await app.engine.games.list(offset, limit);
      return { status: 200, body: { games: games.map(gameView), total, limit, offset } };
    },
  }),

  endpoint({
    method: 'post',
    path: '/api/v1/admin/games/:game_id/secret_key',
    operationId: 'rotateSecretKey',
    tag: 'Admin',
    summary: "Rotate a game's secret key; the old one stops working at once",
    description: 'Issues a new secret key and answers it once; the old key is refused by every API process within 1 second.',
    credentials: 'admin',
    params: object({ game_id: Joi.string().min(1).max(64).description('The game') }),
    responses: { 200: { schema: SecretKey } },
    // It reads no body, but a body sent anyway is still checked (400 invalid_json, 413, 415).
    errors: [400, 404, 413, 415],
    async handler({ params, app }) {
      const { secretKey } = await app.engine.games.rotateSecretKey(params.game_id, 'admin');
      return { status: 200, body: { secret_key: secretKey } };
    },
  }),
];
