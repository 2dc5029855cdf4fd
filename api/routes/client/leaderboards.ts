import { Router } from 'express';
import Joi from 'joi';
import type { Engine } from '../../../engine/engine.js';
import type { Authenticators } from '../../middleware/auth.js';
import { validate } from '../../middleware/validate.js';
import { leaderboardParams, pageQuery } from '../schemas.js';
import { entryView, pageView } from '../../views.js';

const aroundQuery = Joi.object({
  range: Joi.string()
    .pattern(/^\d{1,2}$/)
    .custom((value: string, helpers) => (Number(value) >= 1 && Number(value) <= 50 ? Number(value) : helpers.error('any.invalid')))
    .default(5)
    .messages({ 'string.pattern.base': 'must be a whole number from 1 to 50', 'any.invalid': 'must be a whole number from 1 to 50' }),
});

/** Leaderboard reads for game clients: a page (as for third parties) and the entries around the player. */
export function clientLeaderboardRoutes(engine: Engine, auth: Authenticators): Router {
  const router = Router();

  router.get('/leaderboards/:leaderboard_id', auth.gameClient, validate({ params: leaderboardParams, query: pageQuery }), async (_req, res) => {
    const { limit, offset, clan } = res.locals.query;
    const page = await engine.reader.page(res.locals.game.id, res.locals.params.leaderboard_id, clan ? 'clans' : 'players', offset, limit);
    res.json(pageView(engine.config.baseUrl, page, limit, offset));
  });

  router.get(
    '/leaderboards/:leaderboard_id/around_me',
    auth.gameClient,
    validate({ params: leaderboardParams, query: aroundQuery }),
    async (_req, res) => {
      const page = await engine.reader.around(res.locals.game.id, res.locals.params.leaderboard_id, res.locals.playerId!, res.locals.query.range);
      res.json({
        leaderboard_id: page.leaderboard.id,
        total: page.total,
        entries: page.entries.map((entry) => entryView(engine.config.baseUrl, entry)),
      });
    },
  );
  return router;
}
