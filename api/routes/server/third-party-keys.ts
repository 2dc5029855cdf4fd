import Joi from 'joi';
import { thirdPartyKeyView } from '../../views.js';
import { endpoint } from '../endpoint.js';
import { ThirdPartyKeyCreated, ThirdPartyKeyList } from '../responses.js';
import { listQuery, name, object } from '../schemas.js';

/** Read-only keys for outside integrations: created, listed and revoked by the game server. */
export const serverThirdPartyKeyEndpoints = [
  endpoint({
    method: 'post',
    path: '/api/v1/server/third_party_keys',
    operationId: 'createThirdPartyKey',
    tag: 'Game server',
    summary: 'Create a read-only third-party key (shown once)',
    description:
      'A read-only key for a bot or other integration, for the third-party endpoints of this game. The `api_key` is answered once and never shown again; only its hash is stored.',
    credentials: 'secretKey',
    body: object({ name: name.example('Discord bot') }),
    responses: { 201: { schema: ThirdPartyKeyCreated } },
    errors: [],
    async handler({ caller, body, app }) {
      const key = await app.engine.thirdPartyKeys.create(caller.game.id, body.name, 'secret_key');
      return { status: 201, body: { key_id: key.id, name: key.name, api_key: key.apiKey } };
    },
  }),

  endpoint({
    method: 'get',
    path: '/api/v1/server/third_party_keys',
    operationId: 'listThirdPartyKeys',
    tag: 'Game server',
    summary: "The game's third-party keys (without the keys themselves), oldest first, a page at a time",
    description:
      "The game's third-party keys with their names and revocation times (never the keys themselves), oldest first, `limit` at a time from `offset`.",
    credentials: 'secretKey',
    query: listQuery,
    responses: { 200: { schema: ThirdPartyKeyList } },
    errors: [400],
    async handler({ caller, query: { limit, offset }, app }) {
      const { total, keys } = await app.engine.thirdPartyKeys.list(caller.game.id, offset, limit);
      return { status: 200, body: { keys: keys.map(thirdPartyKeyView), total, limit, offset } };
    },
  }),

  endpoint({
    method: 'delete',
    path: '/api/v1/server/third_party_keys/:key_id',
    operationId: 'revokeThirdPartyKey',
    tag: 'Game server',
    summary: 'Revoke a third-party key; every API process refuses it within 1 second',
    description: 'Revokes the key: no API process accepts it more than 1 second after this answer. Revoking a revoked key is 204 again.',
    credentials: 'secretKey',
    params: object({ key_id: Joi.string().min(1).max(128).description('The key id') }),
    responses: { 204: { description: 'Revoked' } },
    errors: [400, 404],
    async handler({ caller, params, app }) {
      await app.engine.thirdPartyKeys.revoke(caller.game.id, params.key_id, 'secret_key');
      return { status: 204 };
    },
  }),
];
