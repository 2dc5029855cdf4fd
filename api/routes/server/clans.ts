import { clanView } from '../../views.js';
import { endpoint } from '../endpoint.js';
import { Clan } from '../responses.js';
import { clanId, name, object, optional } from '../schemas.js';

const clanParams = object({ clan_id: clanId.description('The clan') });

/** Clans, managed by the game server. */
export const serverClanEndpoints = [
  endpoint({
    method: 'put',
    path: '/api/v1/server/clans/:clan_id',
    operationId: 'upsertClan',
    tag: 'Game server',
    summary: 'Create or rename a clan',
    description: 'Creates the clan (201) or renames it (200). Players join a clan through PATCH /api/v1/server/players/{player_id}.',
    credentials: 'secretKey',
    params: clanParams,
    body: object({ name: optional(name) }),
    responses: {
      201: { schema: Clan, description: 'Created (200 with the same body when updated)' },
      200: { schema: Clan, description: 'Also 200' },
    },
    errors: [404],
    async handler({ caller, params, body, app }) {
      const { clan, created } = await app.engine.clans.put(caller.game.id, params.clan_id, body.name, 'secret_key');
      return { status: created ? 201 : 200, body: clanView(clan) };
    },
  }),

  endpoint({
    method: 'delete',
    path: '/api/v1/server/clans/:clan_id',
    operationId: 'deleteClan',
    tag: 'Game server',
    summary: 'Delete a clan; its members become clanless and clan totals drop it',
    description: 'Removes the clan: its members become clanless and every clan leaderboard drops its total.',
    credentials: 'secretKey',
    params: clanParams,
    responses: { 204: { description: 'Deleted' } },
    errors: [400, 404, 409],
    async handler({ caller, params, app }) {
      await app.engine.clans.delete(caller.game.id, params.clan_id, 'secret_key');
      return { status: 204 };
    },
  }),
];
