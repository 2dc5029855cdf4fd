import { Router } from 'express';
import Joi from 'joi';
import type { Engine } from '../../../engine/engine.js';
import type { Authenticators } from '../../middleware/auth.js';
import { validate } from '../../middleware/validate.js';
import { leaderboardParams, listQuery, name } from '../schemas.js';
import { leaderboardView } from '../../views.js';

const bound = Joi.number().allow(null).messages({ 'number.base': 'must be a finite number or null' });
const settingsBody = Joi.object({
  name,
  type: Joi.string().valid('individual', 'clan'),
  sort_order: Joi.string().valid('desc', 'asc'),
  client_reports: Joi.boolean().strict(),
  min_score: bound,
  max_score: bound,
});

/** Leaderboard management for the game server. */
export function serverLeaderboardRoutes(engine: Engine, auth: Authenticators): Router {
  const router = Router();
  router.put('/leaderboards/:leaderboard_id', auth.secretKey, validate({ params: leaderboardParams, body: settingsBody }), async (_req, res) => {
    const body = res.locals.body;
    const { leaderboard, created } = await engine.leaderboards.put(res.locals.game.id, res.locals.params.leaderboard_id, {
      ...(body.name !== undefined && { name: body.name }),
      ...(body.type !== undefined && { type: body.type }),
      ...(body.sort_order !== undefined && { sortOrder: body.sort_order }),
      ...(body.client_reports !== undefined && { clientReports: body.client_reports }),
      ...(body.min_score !== undefined && { minScore: body.min_score }),
      ...(body.max_score !== undefined && { maxScore: body.max_score }),
    });
    res.status(created ? 201 : 200).json(leaderboardView(leaderboard));
  });

  router.get('/leaderboards', auth.secretKey, validate({ query: listQuery }), async (_req, res) => {
    const { limit, offset } = res.locals.query;
    const { total, leaderboards } = await engine.leaderboards.list(res.locals.game.id, offset, limit);
    res.json({ leaderboards: leaderboards.map(leaderboardView), total, limit, offset });
  });

  router.delete('/leaderboards/:leaderboard_id', auth.secretKey, validate({ params: leaderboardParams }), async (_req, res) => {
    await engine.leaderboards.delete(res.locals.game.id, res.locals.params.leaderboard_id);
    res.status(204).end();
  });
  return router;
}
