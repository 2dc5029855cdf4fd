import { batchView } from '../../views.js';
import { endpoint } from '../endpoint.js';
import { BatchResult } from '../responses.js';
import { arrayOf, leaderboardId, object, playerId, score } from '../schemas.js';

const batchBody = object({
  player_id: playerId.example('VrjGW7VgCyKW'),
  scores: arrayOf(score).min(1).max(100),
  leaderboard_ids: arrayOf(leaderboardId.example('weekly_race')).min(1).max(100),
})
  .custom((body: { scores: unknown[]; leaderboard_ids: unknown[] }, helpers) =>
    body.scores.length === body.leaderboard_ids.length ? body : helpers.error('batch.lengths'),
  )
  .messages({ 'batch.lengths': 'scores and leaderboard_ids must have the same length' });

/** The game server reports one player's scores on several leaderboards, all or nothing. */
export const serverScoreEndpoints = [
  endpoint({
    method: 'post',
    path: '/api/v1/server/report_scores',
    operationId: 'reportScores',
    tag: 'Game server',
    summary: "Report one player's scores on several leaderboards",
    description:
      'scores[i] goes to leaderboard_ids[i]; 1-100 pairs. All or nothing: when any pair is invalid (unknown leaderboard, bad or out-of-bounds score) nothing is applied. Safe to retry.',
    credentials: 'secretKey',
    body: batchBody,
    responses: { 200: { schema: BatchResult } },
    errors: [404],
    changed: (reply) => reply.body.results.some((result) => result.improved),
    async handler({ caller, body: { player_id, scores, leaderboard_ids }, app }) {
      const pairs = leaderboard_ids.map((id, i): [string, number] => [id, scores[i] ?? Number.NaN]);
      const results = await app.engine.scores.reportFromServer(caller.game.id, player_id, pairs);
      return { status: 200, body: batchView(player_id, results) };
    },
  }),
];
