import { ForbiddenError } from '../../../engine/errors.js';
import { playerRecordView, rankHistoryView, reportView } from '../../views.js';
import { endpoint } from '../endpoint.js';
import { PlayerRecord, RankHistory, ReportResult } from '../responses.js';
import {
  historyQuery,
  idempotencyKey,
  leaderboardId,
  leaderboardParams,
  metadata,
  object,
  optional,
  playerId,
  score,
  season,
  tiebreakers,
} from '../schemas.js';

/** A game client reports a score; a record is read by the server or its own player. */
export const clientScoreEndpoints = [
  endpoint({
    method: 'post',
    path: '/api/v1/client/leaderboards/:leaderboard_id/report_score',
    operationId: 'reportScore',
    tag: 'Game client',
    summary: 'Report a score for the token’s player',
    description:
      "Applies the score by the leaderboard's update_strategy: best keeps the best (higher on desc leaderboards, lower on asc; on leaderboards with tiebreakers, the best by score then each tiebreaker), latest replaces, sum adds; best_score is the score held after the report and the rank already reflects it. On leaderboards with tiebreakers the body carries one number per column (tiebreakers), and the answer the tiebreakers held; on earliest leaderboards the answer carries achieved_at, when the entry held was reached. metadata is kept with the score whenever the report changes the kept score (best: when improved; latest and sum: every report). With an Idempotency-Key a retry is answered with the first answer and applied once. 503 with Retry-After while a latest or sum leaderboard is being rebuilt. A banned player's reports are refused with 403 player_banned. On a leaderboard with a window (opens_at, closes_at), a report arriving outside it is refused with 403 leaderboard_closed and changes nothing; a retry with the same Idempotency-Key is judged at the first request's arrival.",
    credentials: 'gameClient',
    refusesErasedItself: true,
    rateLimit: 'reports',
    params: leaderboardParams,
    headers: object({ 'idempotency-key': optional(idempotencyKey) }),
    body: object({ score, tiebreakers: optional(tiebreakers), metadata: optional(metadata) }),
    responses: { 200: { schema: ReportResult } },
    errors: [403, 404, 409],
    changed: (reply) => reply.body.improved,
    async handler({ caller, params, body, app, req }) {
      const key = req.get('idempotency-key');
      const result = await app.engine.scores.reportFromClient(
        caller.game.id,
        caller.playerId,
        params.leaderboard_id,
        body,
        key === undefined ? undefined : { key, request: req.body },
      );
      return { status: 200, body: reportView(caller.playerId, result) };
    },
  }),

  endpoint({
    method: 'get',
    path: '/api/v1/client/leaderboards/:leaderboard_id/players/:player_id',
    operationId: 'getPlayerRecord',
    tag: 'Game client',
    summary: "Read a player's record",
    description:
      'With the Secret-Key: any player of the game. With a player token: that player only (else 403 forbidden). 404 record_not_found when the player has no score there.',
    credentials: 'serverOrClient',
    params: object({
      leaderboard_id: leaderboardId.description('The leaderboard'),
      player_id: playerId.description("The service's player id"),
    }),
    query: object({ season }),
    responses: { 200: { schema: PlayerRecord } },
    errors: [400, 403, 404],
    // The leaderboard and the player are looked up together: whichever is missing first answers.
    notFound: ['leaderboard_not_found', 'player_not_found'],
    async handler({ caller, params, query, app }) {
      if (caller.playerId !== null && caller.playerId !== params.player_id) {
        throw new ForbiddenError("A player token may read only its own player's record; use the Secret-Key for others.");
      }
      // A player reading their own record sees their held score as if counted (docs/review.md).
      const own = caller.playerId !== null;
      const record = await app.engine.scores.record(caller.game.id, params.leaderboard_id, params.player_id, query.season, own);
      return { status: 200, body: playerRecordView(app.engine.config.baseUrl, record) };
    },
  }),

  endpoint({
    method: 'get',
    path: '/api/v1/client/leaderboards/:leaderboard_id/players/:player_id/history',
    operationId: 'getRankHistory',
    tag: 'Game client',
    summary: "A player's rank history",
    description:
      "The player's best rank this season and their daily rank snapshots on the leaderboard (docs/history.md), oldest first, at most 400. With the Secret-Key: any player of the game. With a player token: that player only (else 403 forbidden). 404 record_not_found for a banned player (a shadow-banned player reading their own sees it: they are not told, docs/review.md).",
    credentials: 'serverOrClient',
    params: object({
      leaderboard_id: leaderboardId.description('The leaderboard'),
      player_id: playerId.description("The service's player id"),
    }),
    query: historyQuery,
    responses: { 200: { schema: RankHistory } },
    errors: [400, 403, 404],
    notFound: ['leaderboard_not_found', 'player_not_found'],
    async handler({ caller, params, query, app }) {
      if (caller.playerId !== null && caller.playerId !== params.player_id) {
        throw new ForbiddenError("A player token may read only its own player's history; use the Secret-Key for others.");
      }
      return {
        status: 200,
        body: rankHistoryView(
          await app.engine.history.of(caller.game.id, params.leaderboard_id, params.player_id, query, caller.playerId !== null),
        ),
      };
    },
  }),
];
