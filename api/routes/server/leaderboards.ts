import Joi from 'joi';
import { leaderboardView } from '../../views.js';
import { endpoint } from '../endpoint.js';
import { Leaderboard, LeaderboardList } from '../responses.js';
import { leaderboardParams, listQuery, name, nullable, object, oneOf, optional } from '../schemas.js';

const bound = nullable(Joi.number()).messages({ 'number.base': 'must be a finite number or null' });
const settingsBody = object({
  name: optional(name),
  type: optional(oneOf('individual', 'clan')),
  sort_order: optional(oneOf('desc', 'asc')),
  client_reports: optional(Joi.boolean().strict()),
  min_score: optional(bound),
  max_score: optional(bound),
});

/** Leaderboard management for the game server. */
export const serverLeaderboardEndpoints = [
  endpoint({
    method: 'put',
    path: '/api/v1/server/leaderboards/:leaderboard_id',
    operationId: 'upsertLeaderboard',
    tag: 'Game server',
    summary: 'Create or update a leaderboard',
    description:
      'All fields optional; defaults: name = the id, type individual, sort_order desc, client_reports true, no bounds. 201 created, 200 updated. Changing type or sort_order once scores exist is 409 conflict.',
    credentials: 'secretKey',
    params: leaderboardParams,
    body: settingsBody,
    responses: {
      201: { schema: Leaderboard, description: 'Created (200 with the same body when updated)' },
      200: { schema: Leaderboard, description: 'Also 200' },
    },
    errors: [404, 409],
    async handler({ caller, params, body, app }) {
      const { leaderboard, created } = await app.engine.leaderboards.put(caller.game.id, params.leaderboard_id, {
        ...(body.name !== undefined && { name: body.name }),
        ...(body.type !== undefined && { type: body.type }),
        ...(body.sort_order !== undefined && { sortOrder: body.sort_order }),
        ...(body.client_reports !== undefined && { clientReports: body.client_reports }),
        ...(body.min_score !== undefined && { minScore: body.min_score }),
        ...(body.max_score !== undefined && { maxScore: body.max_score }),
      });
      return { status: created ? 201 : 200, body: leaderboardView(leaderboard) };
    },
  }),

  endpoint({
    method: 'get',
    path: '/api/v1/server/leaderboards',
    operationId: 'listLeaderboards',
    tag: 'Game server',
    summary: "The game's leaderboards, oldest first, a page at a time",
    description: "The game's leaderboards with their settings, oldest first, `limit` at a time from `offset`, with `total`.",
    credentials: 'secretKey',
    query: listQuery,
    responses: { 200: { schema: LeaderboardList } },
    errors: [400],
    async handler({ caller, query: { limit, offset }, app }) {
      const { total, leaderboards } = await app.engine.leaderboards.list(caller.game.id, offset, limit);
      return { status: 200, body: { leaderboards: leaderboards.map(leaderboardView), total, limit, offset } };
    },
  }),

  endpoint({
    method: 'delete',
    path: '/api/v1/server/leaderboards/:leaderboard_id',
    operationId: 'deleteLeaderboard',
    tag: 'Game server',
    summary: 'Delete a leaderboard and all its scores, for good',
    description:
      'Removes the leaderboard, its scores and clan totals. Final: persistence jobs still queued for it never bring its scores back, and a leaderboard created later under the same id starts empty.',
    credentials: 'secretKey',
    params: leaderboardParams,
    responses: { 204: { description: 'Deleted' } },
    errors: [400, 404],
    async handler({ caller, params, app }) {
      await app.engine.leaderboards.delete(caller.game.id, params.leaderboard_id);
      return { status: 204 };
    },
  }),
];
