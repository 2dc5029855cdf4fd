import Joi from 'joi';
import type { Review } from '../../../engine/reviews/review-store.js';
import { html, type Html } from '../../html.js';
import { csrfField } from '../../middleware/dashboard-session.js';
import { endpoint } from '../endpoint.js';
import { banReason, limit, object, offset, oneOf, optional } from '../schemas.js';
import { boardPath } from './leaderboards/common.js';
import { offsetPager } from './pager.js';
import { confirmButton, dashboardPage, dataTable, href, notice, pageReply, postForm, type Screen, screenOf, seeOther } from './view.js';

/** What a decision says on the list after its redirect (`?done=`): a code, never free text. */
const DONE = {
  approved: 'Approved: the score counts from now on.',
  rejected: 'Rejected: the score is dropped.',
  banned: 'Rejected, and the player banned: they are hidden from every leaderboard and their reports are refused.',
} as const;

/** Why a rule held the score (docs/review.md, "1. The rules"), in a moderator's words. */
const REASONS: Record<Review['reason'], string> = {
  above: "Better than the leaderboard's review limit",
  gain: "Improved faster since the player's previous score than the leaderboard allows",
  outlier: "Far ahead of the leaderboard's first place",
};

const reviewParams = object({
  review_id: Joi.string().max(64).description('The held score, as the review queue names it'),
});

const reviewPath = (id: string) => `/reviews/${encodeURIComponent(id)}`;

const heldAt = (at: Date) => html`<time datetime="${at.toISOString()}">${at.toISOString().replace('T', ' ').slice(0, 19)}</time>`;

function reviewRow(screen: Screen, review: Review, index: number): Html {
  const name = review.displayName ?? review.playerId;
  const whose = `${name}'s score of ${review.score} on ${review.leaderboardId}`;
  const ban = `reject-${index}-ban`;
  const reason = `reject-${index}-reason`;
  return html`<tr>
    <td><a href="${href(screen, boardPath(review.leaderboardId))}">${review.leaderboardId}</a></td>
    <td>
      <a href="${href(screen, `/players/${encodeURIComponent(review.playerId)}`)}">${name}</a><br />
      <code class="muted lb-id">${review.playerId}</code>
    </td>
    <td class="number">${String(review.score)}</td>
    <td class="number">${review.previousScore === null ? html`<span class="muted">—</span>` : String(review.previousScore)}</td>
    <td>${REASONS[review.reason]}</td>
    <td>${heldAt(review.heldAt)}</td>
    <td class="actions">
      ${postForm(
        screen,
        `${reviewPath(review.reviewId)}/approve`,
        html`<button type="submit" class="button primary" aria-label="Approve ${whose}">Approve</button>`,
        html`class="inline"`,
      )}
      ${confirmButton(
        screen,
        `${reviewPath(review.reviewId)}/reject`,
        { text: 'Reject', name: `Reject ${whose}` },
        'Reject this score? It is dropped and never counts.',
        'Yes, reject the score',
        html`<div class="lb-check">
            <input id="${ban}" name="ban" type="checkbox" value="on" />
            <label for="${ban}">Also ban the player</label>
          </div>
          <label for="${reason}">Ban reason (optional)</label>
          <input id="${reason}" name="reason" maxlength="500" />`,
      )}
    </td>
  </tr>`;
}

export const reviewsPageEndpoint = endpoint({
  method: 'get',
  path: '/dashboard/reviews',
  operationId: 'listDashboardReviews',
  tag: 'Dashboard',
  summary: 'Review',
  description:
    'Held scores awaiting a decision (as GET /api/v1/server/reviews), oldest first, `limit` (50) a page, each with Approve and Reject (docs/review.md).',
  credentials: 'dashboard',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  query: object({ limit, offset, done: optional(oneOf('approved', 'rejected', 'banned')) }),
  responses: { 200: { content: 'text/html', description: 'The page' } },
  errors: [400],
  async handler({ caller: { game }, query, app, req, res }) {
    const screen = screenOf(app, req, res, game);
    const { limit, offset } = query;
    const { reviews, total } = await app.engine.reviews.pending(game.id, undefined, limit, offset);
    const pager = offsetPager('Review pages', { offset, limit, total }, (at) => href(screen, `/reviews?limit=${limit}&offset=${at}`), {
      empty: 'None waiting',
    });
    // A page past the end (its last review decided) says so, and still pages back.
    const list =
      total === 0
        ? html`<p>No held score is waiting for review.</p>`
        : reviews.length === 0
          ? html`<p class="muted">No held score on this page.</p>
              ${pager}`
          : html`${dataTable(
              [
                'Leaderboard',
                'Player',
                { label: 'Held score', numeric: true },
                { label: 'Previous score', numeric: true },
                'Reason',
                'Held (UTC)',
                { hidden: 'Actions' },
              ],
              reviews.map((review, i) => reviewRow(screen, review, i)),
              { caption: 'Held scores waiting for review, oldest first' },
            )}
            ${pager}`;
    const body = html`${notice(query.done ? DONE[query.done] : undefined)}
      <section class="card" aria-labelledby="held-heading">
        <h2 id="held-heading">Held scores (${String(total)})</h2>
        <p class="hint">
          Client reports a leaderboard's review rules caught: their players see them as counted, nobody else does. Approve counts one from
          now on; Reject drops it.
        </p>
        ${list}
      </section>`;
    return pageReply(dashboardPage(screen, { title: 'Review', section: 'Review', body }));
  },
});

export const approveReviewEndpoint = endpoint({
  method: 'post',
  path: '/dashboard/reviews/:review_id/approve',
  operationId: 'approveDashboardReview',
  tag: 'Dashboard',
  summary: 'Approve a held score',
  description:
    "As POST /api/v1/server/reviews/:review_id/approve (audited as review.approve by the dashboard): the score counts from now on, by the leaderboard's rule. A decided review is 409; a banned player's score is 403.",
  credentials: 'dashboard',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  params: reviewParams,
  body: object(csrfField),
  responses: { 303: { description: 'Back to the review list' } },
  errors: [400, 403, 404, 409],
  notFound: ['review_not_found'],
  async handler({ caller: { game }, params, app, res }) {
    await app.engine.reviews.approve(game.id, params.review_id, 'dashboard');
    return seeOther(app, res, '/reviews?done=approved');
  },
});

export const rejectReviewEndpoint = endpoint({
  method: 'post',
  path: '/dashboard/reviews/:review_id/reject',
  operationId: 'rejectDashboardReview',
  tag: 'Dashboard',
  summary: 'Reject a held score',
  description:
    "As POST /api/v1/server/reviews/:review_id/reject (audited as review.reject, and player.ban, by the dashboard): the score is dropped; with `ban` ticked the player is banned too, `reason` being the ban's. A decided review is 409.",
  credentials: 'dashboard',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  params: reviewParams,
  body: object({
    ban: optional(Joi.boolean().truthy('on').empty('')),
    reason: optional(banReason.empty('')),
    ...csrfField,
  }),
  responses: { 303: { description: 'Back to the review list' } },
  errors: [400, 404, 409],
  notFound: ['review_not_found'],
  async handler({ caller: { game }, params, body, app, res }) {
    const ban = body.ban ? { reason: body.reason ?? null } : null;
    await app.engine.reviews.reject(game.id, params.review_id, ban, 'dashboard');
    return seeOther(app, res, `/reviews?done=${ban ? 'banned' : 'rejected'}`);
  },
});

export const reviewsEndpoints = [reviewsPageEndpoint, approveReviewEndpoint, rejectReviewEndpoint];
