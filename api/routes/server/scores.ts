import type { Report } from '../../../engine/scores/score-service.js';
import { batchView, rankHistoryView } from '../../views.js';
import { endpoint } from '../endpoint.js';
import { BatchResult, RankHistory } from '../responses.js';
import {
  arrayOf,
  historyQuery,
  idempotencyKey,
  leaderboardId,
  metadata,
  nullable,
  object,
  optional,
  playerId,
  score,
  tiebreakers,
} from '../schemas.js';

const batchBody = object({
  player_id: playerId.example('VrjGW7VgCyKW'),
  scores: arrayOf(score).min(1).max(100),
  leaderboard_ids: arrayOf(leaderboardId.example('weekly_race')).min(1).max(100),
  metadata: optional(
    arrayOf(nullable(metadata))
      .max(100)
      .description('metadata[i] (an object, or null for none) is kept with scores[i]; absent: none for every pair'),
  ),
  tiebreakers: optional(
    arrayOf(nullable(tiebreakers))
      .max(100)
      .description(
        "tiebreakers[i] goes with scores[i]: one number per tiebreaker column of leaderboard_ids[i], or null where that leaderboard has none; absent: no pair's leaderboard has any",
      ),
  ),
})
  .custom((body: { scores: unknown[]; leaderboard_ids: unknown[]; metadata?: unknown[]; tiebreakers?: unknown[] }, helpers) => {
    if (body.scores.length !== body.leaderboard_ids.length) return helpers.error('batch.lengths');
    if (body.tiebreakers !== undefined && body.tiebreakers.length !== body.scores.length) return helpers.error('batch.tiebreakers');
    return body.metadata === undefined || body.metadata.length === body.scores.length ? body : helpers.error('batch.metadata');
  })
  .messages({
    'batch.lengths': 'scores and leaderboard_ids must have the same length',
    'batch.metadata': 'metadata must have the same length as scores',
    'batch.tiebreakers': 'tiebreakers must have the same length as scores',
  });

/** The game server reports one player's scores on several leaderboards, all or nothing. */
export const serverScoreEndpoints = [
  endpoint({
    method: 'post',
    path: '/api/v1/server/report_scores',
    operationId: 'reportScores',
    tag: 'Game server',
    summary: "Report one player's scores on several leaderboards",
    description:
      "scores[i] goes to leaderboard_ids[i], with metadata[i] when given; 1-100 pairs, each applied by its leaderboard's update_strategy. tiebreakers[i] carries one number per tiebreaker column of leaderboard_ids[i] (null where it has none). All or nothing: when any pair is invalid (unknown leaderboard, bad or out-of-bounds score, tiebreakers that do not fit, bad metadata) nothing is applied. With an Idempotency-Key a batch cut short and retried applies each pair exactly once and answers the whole batch; without one, resending is harmless on best leaderboards only. A banned player's scores are refused with 403 player_banned. When a leaderboard of the batch has a window (opens_at, closes_at) that the request arrived outside of, the whole batch is refused with 403 leaderboard_closed, its details naming each such pair; a retry with the same Idempotency-Key is judged at the first request's arrival.",
    credentials: 'secretKey',
    headers: object({ 'idempotency-key': optional(idempotencyKey) }),
    body: batchBody,
    responses: { 200: { schema: BatchResult } },
    errors: [403, 404, 409],
    changed: (reply) => reply.body.results.some((result) => result.improved),
    async handler({ caller, body: { player_id, scores, leaderboard_ids, metadata, tiebreakers }, app, req }) {
      const pairs = leaderboard_ids.map((id, i): [string, Report] => [
        id,
        { score: scores[i] ?? Number.NaN, metadata: metadata?.[i], tiebreakers: tiebreakers?.[i] },
      ]);
      const key = req.get('idempotency-key');
      const retry = key === undefined ? undefined : { key, request: req.body };
      const results = await app.engine.scores.reportFromServer(caller.game.id, player_id, pairs, retry);
      return { status: 200, body: batchView(player_id, results) };
    },
  }),

  endpoint({
    method: 'get',
    path: '/api/v1/server/leaderboards/:leaderboard_id/players/:player_id/history',
    operationId: 'getServerRankHistory',
    tag: 'Game server',
    summary: "A player's rank history",
    description:
      "The player's best rank this season and their daily rank snapshots on the leaderboard (docs/history.md), oldest first, at most 400. 404 record_not_found for a banned player.",
    credentials: 'secretKey',
    params: object({
      leaderboard_id: leaderboardId.description('The leaderboard'),
      player_id: playerId.description("The service's player id"),
    }),
    query: historyQuery,
    responses: { 200: { schema: RankHistory } },
    errors: [400, 404],
    notFound: ['leaderboard_not_found', 'player_not_found'],
    async handler({ caller, params, query, app }) {
      return {
        status: 200,
        body: rankHistoryView(await app.engine.history.of(caller.game.id, params.leaderboard_id, params.player_id, query)),
      };
    },
  }),
];
