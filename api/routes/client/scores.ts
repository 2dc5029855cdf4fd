import { Router } from 'express';
import Joi from 'joi';
import type { Engine } from '../../../engine/engine.js';
import { ForbiddenError } from '../../../engine/errors.js';
import type { Authenticators } from '../../middleware/auth.js';
import type { RateLimits } from '../../middleware/rate-limit.js';
import { validate } from '../../middleware/validate.js';
import { leaderboardId, leaderboardParams, playerId, score } from '../schemas.js';
import { playerRecordView, reportView } from '../../views.js';

const reportBody = Joi.object({ score: score.required() });
const recordParams = Joi.object({ leaderboard_id: leaderboardId.required(), player_id: playerId.required() });

/** Endpoints 2 and 4: a game client reports a score; a record is read by the server or its own player. */
export function clientScoreRoutes(engine: Engine, auth: Authenticators, limits: RateLimits): Router {
  const router = Router();

  router.post(
    '/leaderboards/:leaderboard_id/report_score',
    auth.gameClient,
    limits.reports,
    validate({ params: leaderboardParams, body: reportBody }),
    async (_req, res) => {
      const { game, playerId: player } = res.locals;
      const result = await engine.scores.reportFromClient(game.id, player!, res.locals.params.leaderboard_id, res.locals.body.score);
      res.json(reportView(player!, result));
    },
  );

  router.get(
    '/leaderboards/:leaderboard_id/players/:player_id',
    auth.serverOrClient,
    validate({ params: recordParams }),
    async (_req, res) => {
      const { leaderboard_id, player_id } = res.locals.params;
      if (!res.locals.serverCaller && res.locals.playerId !== player_id) {
        throw new ForbiddenError("A player token may read only its own player's record; use the Secret-Key for others.");
      }
      const record = await engine.scores.record(res.locals.game.id, leaderboard_id, player_id);
      res.json(playerRecordView(engine.config.baseUrl, record));
    },
  );
  return router;
}
