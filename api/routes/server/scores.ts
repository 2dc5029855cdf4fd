import { Router } from 'express';
import Joi from 'joi';
import type { Engine } from '../../../engine/engine.js';
import type { Authenticators } from '../../middleware/auth.js';
import { validate } from '../../middleware/validate.js';
import { leaderboardId, playerId, score } from '../schemas.js';

const batchBody = Joi.object({
  player_id: playerId.required(),
  scores: Joi.array().items(score.required()).min(1).max(100).required(),
  leaderboard_ids: Joi.array().items(leaderboardId.required()).min(1).max(100).required(),
}).custom((body: { scores: unknown[]; leaderboard_ids: unknown[] }, helpers) =>
  body.scores.length === body.leaderboard_ids.length ? body : helpers.error('batch.lengths'),
).messages({ 'batch.lengths': 'scores and leaderboard_ids must have the same length' });

/** Endpoint 3: the game server reports one player's scores on several leaderboards, all or nothing. */
export function serverScoreRoutes(engine: Engine, auth: Authenticators): Router {
  const router = Router();
  router.post('/report_scores', auth.secretKey, validate({ body: batchBody }), async (_req, res) => {
    const { player_id, scores, leaderboard_ids } = res.locals.body as { player_id: string; scores: number[]; leaderboard_ids: string[] };
    const pairs = leaderboard_ids.map((id, i): [string, number] => [id, scores[i]!]);
    const results = await engine.scores.reportFromServer(res.locals.game.id, player_id, pairs);
    res.json({
      player_id,
      results: results.map((result) => ({
        leaderboard_id: result.leaderboardId,
        submitted_score: result.submittedScore,
        best_score: result.bestScore,
        improved: result.improved,
        rank: result.rank,
      })),
    });
  });
  return router;
}
