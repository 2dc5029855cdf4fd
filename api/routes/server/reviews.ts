import Joi from 'joi';
import { endpoint } from '../endpoint.js';
import { reviewDecisionView, reviewView } from '../../views.js';
import { ReviewDecision, ReviewList } from '../responses.js';
import { banReason, leaderboardId, limit, object, offset, optional } from '../schemas.js';

const reviewParams = object({
  review_id: Joi.string()
    .max(64)
    .description('The held score, as the review queue names it')
    .example('3f0c6f5e-2b7a-4c1e-9d55-7a0b1c2d3e4f'),
});

/** The review queue of held scores (docs/review.md): list, approve, reject. */
export const serverReviewEndpoints = [
  endpoint({
    method: 'get',
    path: '/api/v1/server/reviews',
    operationId: 'listReviews',
    tag: 'Game server',
    summary: 'Held scores awaiting a decision, oldest first',
    description:
      "Client reports a leaderboard's review rules held (docs/review.md): counted for nobody but their player until approved or rejected. Of one leaderboard with `leaderboard_id`, else of the whole game. A held score still undecided when its season ends is rejected by the service (actor system).",
    credentials: 'secretKey',
    query: object({ leaderboard_id: optional(leaderboardId.description('Only this leaderboard')), limit, offset }),
    responses: { 200: { schema: ReviewList } },
    errors: [400, 404],
    notFound: ['leaderboard_not_found'],
    async handler({ caller, query, app }) {
      const { reviews, total } = await app.engine.reviews.pending(caller.game.id, query.leaderboard_id, query.limit, query.offset);
      return { status: 200, body: { reviews: reviews.map(reviewView), total, limit: query.limit, offset: query.offset } };
    },
  }),

  endpoint({
    method: 'post',
    path: '/api/v1/server/reviews/:review_id/approve',
    operationId: 'approveReview',
    tag: 'Game server',
    summary: "Approve a held score: it counts from now on, by the board's rule",
    description:
      "Applied as a report made at this moment, by the leaderboard's rule (best: kept if better; latest: replaces; sum: the held amounts added), with what a report brings (ranks, clan totals, events). A second decision is 409 conflict; a banned player's is 403 player_banned. Recorded in the audit log as review.approve.",
    credentials: 'secretKey',
    params: reviewParams,
    responses: { 200: { schema: ReviewDecision } },
    errors: [400, 403, 404, 409, 413, 415],
    notFound: ['review_not_found'],
    async handler({ caller, params, app }) {
      return { status: 200, body: reviewDecisionView(await app.engine.reviews.approve(caller.game.id, params.review_id, 'secret_key')) };
    },
  }),

  endpoint({
    method: 'post',
    path: '/api/v1/server/reviews/:review_id/reject',
    operationId: 'rejectReview',
    tag: 'Game server',
    summary: 'Reject a held score: it is dropped, and the player banned if asked',
    description:
      'The player\'s own reads stop showing it at once. With `"ban": true` the player is banned as by POST …/players/:player_id/ban, `reason` being the ban\'s. A second decision is 409 conflict, and so is a rejection of a hold that an approval applied without recording its decision (approve it again to record it). Recorded in the audit log as review.reject (and player.ban).',
    credentials: 'secretKey',
    params: reviewParams,
    body: object({
      ban: optional(Joi.boolean().strict().example(false).description('Also ban the player (default false)')),
      reason: optional(banReason.example('Impossible score').description("The ban's reason: 1-500 characters, readable text")),
    }),
    responses: { 200: { schema: ReviewDecision } },
    errors: [400, 404, 409, 413, 415],
    notFound: ['review_not_found'],
    async handler({ caller, params, body, app }) {
      const ban = body.ban ? { reason: body.reason ?? null } : null;
      return {
        status: 200,
        body: reviewDecisionView(await app.engine.reviews.reject(caller.game.id, params.review_id, ban, 'secret_key')),
      };
    },
  }),
];
