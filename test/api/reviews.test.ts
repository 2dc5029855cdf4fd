import { expect } from 'chai';
import { api, testStores } from '../helpers/context.js';
import {
  botPage,
  createGame,
  createLeaderboard,
  createThirdPartyKey,
  internalBoard,
  reportScore,
  secretKey,
  serverReport,
  signup,
  signupMany,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';
import { boardLosesLiveState, persistedScores, waitForPersistence } from '../helpers/persistence.js';
import { startWorker, until, type ServiceProcess } from '../helpers/processes.js';
import { AuditStore } from '../../engine/audit/audit-store.js';
import { transactionsOn } from '../../engine/db.js';
import { WebhookEvents } from '../../engine/events/webhook-events.js';
import type { WebhookQueue } from '../../engine/events/webhook-queue.js';
import { WebhookStore } from '../../engine/events/webhook-store.js';
import { HeldScores } from '../../engine/reviews/held-scores.js';
import { ReviewStore } from '../../engine/reviews/review-store.js';

/**
 * Held scores (docs/review.md): a client report a board's review rules catch is answered as if it
 * counted, shows in its player's own record and nowhere else, waits in the review queue, and counts
 * only once approved; a rejection drops it; its season's end rejects it; a lost Redis keeps it held.
 */

type Review = { review_id: string; player_id: string; score: number; previous_score: number | null; reason: string; season: number };

const ownRecord = (game: TestGame, leaderboard: string, player: TestPlayer) =>
  api()
    .get(`/api/v1/client/leaderboards/${leaderboard}/players/${player.playerId}`)
    .set('Publishable-Key', game.publishableKey)
    .set('Anonymous-Authorization', player.token);
const serverRecord = (game: TestGame, leaderboard: string, playerId: string) =>
  api().get(`/api/v1/client/leaderboards/${leaderboard}/players/${playerId}`).set(secretKey(game));
const approve = (game: TestGame, reviewId: string) =>
  api().post(`/api/v1/server/reviews/${reviewId}/approve`).set(secretKey(game)).send({});
const reject = (game: TestGame, reviewId: string, body: Record<string, unknown> = {}) =>
  api().post(`/api/v1/server/reviews/${reviewId}/reject`).set(secretKey(game)).send(body);

async function queue(game: TestGame, leaderboard?: string): Promise<{ reviews: Review[]; total: number }> {
  const query = leaderboard ? `?leaderboard_id=${leaderboard}` : '';
  const { body } = await api().get(`/api/v1/server/reviews${query}`).set(secretKey(game)).expect(200);
  return body;
}

describe('held scores: review rules, the review queue, decisions', function () {
  this.timeout(120_000);
  let game: TestGame;
  let apiKey: string;

  before(async () => {
    game = await createGame();
    apiKey = (await createThirdPartyKey(game)).apiKey;
  });

  it('when a client report passes `above`, then its answer and the own record of its player count it, and nobody else sees it', async () => {
    const leaderboard = await createLeaderboard(game, { review: { above: 1000 } });
    const [a, b, cheat] = await signupMany(game, 3);
    await reportScore(game, a!, leaderboard, 500).expect(200);
    await reportScore(game, b!, leaderboard, 800).expect(200);

    const held = await reportScore(game, cheat!, leaderboard, 5000).expect(200);
    expect(held.body).to.include({ best_score: 5000, rank: 1, total: 3, improved: true });

    const mine = await ownRecord(game, leaderboard, cheat!).expect(200);
    expect(mine.body).to.include({ score: 5000, rank: 1, total: 3 });
    // Every other read: the board, the total, another player's rank, the server's read of the player.
    expect(await botPage(apiKey, leaderboard)).to.deep.equal({
      total: 2,
      rows: [
        [b!.playerId, 800, 1],
        [a!.playerId, 500, 2],
      ],
    });
    expect((await ownRecord(game, leaderboard, b!).expect(200)).body).to.include({ rank: 1, total: 2 });
    const others = await serverRecord(game, leaderboard, cheat!.playerId).expect(404);
    expect(others.body.error.code).to.equal('record_not_found');

    // A later client report joins the pending hold (best: the better of them): one review.
    await reportScore(game, cheat!, leaderboard, 4000).expect(200);
    const joined = await reportScore(game, cheat!, leaderboard, 6000).expect(200);
    expect(joined.body).to.include({ best_score: 6000, rank: 1, total: 3 });
    const { reviews, total } = await queue(game, leaderboard);
    expect(total).to.equal(1);
    expect(reviews[0]).to.include({ player_id: cheat!.playerId, score: 6000, previous_score: null, reason: 'above', season: 1 });
  });

  it('when a player reads around_me and list ranks, then their own row shows the held score as if counted, and nobody else does', async () => {
    const leaderboard = await createLeaderboard(game, { review: { above: 750 } });
    const [a, b, c, cheat] = await signupMany(game, 4);
    // The game server's scores are trusted, above the threshold too.
    await serverReport(game, a!.playerId, [900], [leaderboard]);
    await serverReport(game, b!.playerId, [700], [leaderboard]);
    await serverReport(game, c!.playerId, [500], [leaderboard]);
    await reportScore(game, cheat!, leaderboard, 600).expect(200);
    // Held between a (900) and b (700): rank 2 in the cheater's own reads; counted, they rank 3.
    const held = await reportScore(game, cheat!, leaderboard, 800).expect(200);
    expect(held.body).to.include({ rank: 2, total: 4 });
    const client = (player: TestPlayer, path: string) =>
      api()
        .get(`/api/v1/client/leaderboards/${leaderboard}/${path}`)
        .set('Publishable-Key', game.publishableKey)
        .set('Anonymous-Authorization', player.token);
    const rows = (body: { entries: { player_id: string; score: number; rank: number }[] }) =>
      body.entries.map((e) => [e.player_id, e.score, e.rank]);

    const mine = (await client(cheat!, 'around_me?range=1').expect(200)).body;
    expect(mine.total).to.equal(4);
    expect(rows(mine)).to.deep.equal([
      [a!.playerId, 900, 1],
      [cheat!.playerId, 800, 2],
      [b!.playerId, 700, 2],
    ]);
    const theirs = (await client(b!, 'around_me?range=1').expect(200)).body;
    expect(theirs.total).to.equal(4);
    expect(rows(theirs)).to.deep.equal([
      [a!.playerId, 900, 1],
      [b!.playerId, 700, 2],
      [cheat!.playerId, 600, 3],
    ]);

    const listed = (await client(cheat!, `ranks?player_ids=${b!.playerId},${c!.playerId}`).expect(200)).body;
    expect(listed.total).to.equal(4);
    expect(
      listed.entries.map((e: { player_id: string; score: number; rank: number; list_rank: number }) => [
        e.player_id,
        e.score,
        e.rank,
        e.list_rank,
      ]),
    ).to.deep.equal([
      [cheat!.playerId, 800, 2, 1],
      [b!.playerId, 700, 2, 1],
      [c!.playerId, 500, 4, 3],
    ]);
    const others = (await client(b!, `ranks?player_ids=${cheat!.playerId}`).expect(200)).body;
    expect(others.entries.map((e: { player_id: string; score: number }) => [e.player_id, e.score])).to.deep.equal([
      [b!.playerId, 700],
      [cheat!.playerId, 600],
    ]);
  });

  it('when a report is held, then it overtakes nobody, and a held player is never named as overtaken; its approval overtakes as a report would', async () => {
    const leaderboard = await createLeaderboard(game, { notify_top: 5, review: { above: 1000 } });
    const [a, b, cheat] = await signupMany(game, 3);
    await serverReport(game, a!.playerId, [900], [leaderboard]);
    await reportScore(game, b!, leaderboard, 500).expect(200);
    const key = testStores().keys(await internalBoard(game, leaderboard)).overtaken;
    const records = async () =>
      (await testStores().redis.xrange(key, '-', '+')).map(([, fields]) => {
        const field = new Map<string, string>();
        for (let i = 0; i < fields.length; i += 2) field.set(fields[i]!, fields[i + 1]!);
        return [field.get('by'), field.get('players')];
      });
    // Held above both: no record, though its answer says rank 1.
    expect((await reportScore(game, cheat!, leaderboard, 5000).expect(200)).body.rank).to.equal(1);
    expect(await records()).to.deep.equal([]);
    // b passes a: a is named, the held player (shown first to themselves only) is not.
    await reportScore(game, b!, leaderboard, 950).expect(200);
    expect(await records()).to.deep.equal([[b!.playerId, `${a!.playerId} 2`]]);
    // The approval is a report made now: it passes b and a.
    const [review] = (await queue(game, leaderboard)).reviews;
    await approve(game, review!.review_id).expect(200);
    expect((await records()).slice(1)).to.deep.equal([[cheat!.playerId, `${b!.playerId} 2 ${a!.playerId} 3`]]);
  });

  it('when a held score is approved, then it counts once, by the board rule, and a second decision is 409', async () => {
    const leaderboard = await createLeaderboard(game, { review: { above: 1000 } });
    const [a, cheat] = await signupMany(game, 2);
    await reportScore(game, a!, leaderboard, 900).expect(200);
    await reportScore(game, cheat!, leaderboard, 700).expect(200);
    await reportScore(game, cheat!, leaderboard, 2000).expect(200);
    const [review] = (await queue(game, leaderboard)).reviews;
    expect(review).to.include({ score: 2000, previous_score: 700 });

    const approved = await approve(game, review!.review_id).expect(200);
    expect(approved.body).to.include({ decision: 'approved', review_id: review!.review_id, player_id: cheat!.playerId, season: 1 });
    expect(await botPage(apiKey, leaderboard)).to.deep.equal({
      total: 2,
      rows: [
        [cheat!.playerId, 2000, 1],
        [a!.playerId, 900, 2],
      ],
    });
    expect((await approve(game, review!.review_id).expect(409)).body.error.code).to.equal('conflict');
    expect((await reject(game, review!.review_id).expect(409)).body.error.code).to.equal('conflict');
    expect((await queue(game, leaderboard)).total).to.equal(0);
    const { body: log } = await api().get('/api/v1/server/audit_log').set(secretKey(game)).expect(200);
    const entry = log.entries.find(
      (e: { action: string; target: string }) => e.action === 'review.approve' && e.target === review!.review_id,
    );
    expect(entry).to.include({ actor: 'secret_key' });

    // Counted now: a next report above the threshold is held again, as a new review.
    await reportScore(game, cheat!, leaderboard, 3000).expect(200);
    const [next] = (await queue(game, leaderboard)).reviews;
    expect(next).to.include({ score: 3000, previous_score: 2000 });
    expect(next!.review_id).to.not.equal(review!.review_id);
  });

  it('when a held score is rejected with a ban, then it is gone from the reads of its player and the player is banned', async () => {
    const leaderboard = await createLeaderboard(game, { review: { above: 1000 } });
    const cheat = await signup(game);
    await reportScore(game, cheat, leaderboard, 100).expect(200);
    await reportScore(game, cheat, leaderboard, 9000).expect(200);
    expect((await ownRecord(game, leaderboard, cheat).expect(200)).body.score).to.equal(9000);
    const [review] = (await queue(game, leaderboard)).reviews;

    const rejected = await reject(game, review!.review_id, { ban: true, reason: 'Impossible score' }).expect(200);
    expect(rejected.body).to.include({ decision: 'rejected' });
    const refused = await reportScore(game, cheat, leaderboard, 50).expect(403);
    expect(refused.body.error.code).to.equal('player_banned');
    expect((await queue(game, leaderboard)).total).to.equal(0);
  });

  it('when a rejection asks for no ban, then the player keeps their counted score and may report again', async () => {
    const leaderboard = await createLeaderboard(game, { review: { above: 1000 } });
    const player = await signup(game);
    await reportScore(game, player, leaderboard, 100).expect(200);
    await reportScore(game, player, leaderboard, 9000).expect(200);
    const [review] = (await queue(game, leaderboard)).reviews;
    await reject(game, review!.review_id).expect(200);
    expect((await ownRecord(game, leaderboard, player).expect(200)).body).to.include({ score: 100, rank: 1, total: 1 });
    expect((await reportScore(game, player, leaderboard, 200).expect(200)).body).to.include({ best_score: 200 });
  });

  it('when PostgreSQL fails the write of a hold, then a retry with the same Idempotency-Key writes it: it waits in the queue', async () => {
    const leaderboard = await createLeaderboard(game, { review: { above: 1000 } });
    const player = await signup(game);
    const keyed = () => reportScore(game, player, leaderboard, 5000).set('Idempotency-Key', `hold-${leaderboard}`);
    const { pool } = testStores();
    // A webhook of this board only, that wants score.held: the events recorded count the writes.
    await api()
      .post('/api/v1/server/webhooks')
      .set(secretKey(game))
      .send({ url: 'https://hooks.example.com/held', events: ['score.held'], leaderboard_ids: [leaderboard] })
      .expect(201);
    const heldEvents = async () =>
      (
        await pool.query<{ count: number }>(
          `SELECT count(*)::int AS count FROM webhook_events WHERE game_id = $1 AND type = 'score.held' AND body::jsonb->'data'->>'leaderboard_id' = $2`,
          [game.gameId, leaderboard],
        )
      ).rows[0]!.count;
    // Refuses this hold's row only (NOT VALID: the rows already there are not checked).
    await pool.query(`ALTER TABLE reviews ADD CONSTRAINT refuse_hold_once CHECK (score <> 5000) NOT VALID`);
    try {
      const failed = await keyed();
      expect(failed.status, 'the answer while PostgreSQL refuses the hold').to.be.within(500, 599);
    } finally {
      await pool.query('ALTER TABLE reviews DROP CONSTRAINT refuse_hold_once');
    }
    expect((await queue(game, leaderboard)).total).to.equal(0);

    const retried = await keyed().expect(200);
    expect(retried.body).to.include({ best_score: 5000, rank: 1, total: 1 });
    const { reviews } = await queue(game, leaderboard);
    expect(reviews.map((review) => [review.player_id, review.score])).to.deep.equal([[player.playerId, 5000]]);
    expect(await heldEvents(), 'score.held once the hold is written').to.equal(1);
    // Written once: another retry changes nothing.
    await keyed().expect(200);
    expect((await queue(game, leaderboard)).total).to.equal(1);
    expect(await heldEvents(), 'score.held after another retry').to.equal(1);
  });

  it('when an approval fails to record its decision after Redis applied it, then approving again records it and counts the hold once', async () => {
    const leaderboard = await createLeaderboard(game, { update_strategy: 'sum', review: { above: 100 } });
    const player = await signup(game);
    await reportScore(game, player, leaderboard, 60).expect(200);
    await reportScore(game, player, leaderboard, 50).expect(200);
    const [review] = (await queue(game, leaderboard)).reviews;
    const { pool } = testStores();
    // Refuses this approval's audit row only, after Redis applied it (NOT VALID: the rows already there are not checked).
    await pool.query(
      `ALTER TABLE audit_log ADD CONSTRAINT refuse_approval CHECK (action <> 'review.approve' OR target <> '${review!.review_id}') NOT VALID`,
    );
    try {
      const failed = await approve(game, review!.review_id);
      expect(failed.status, 'the answer while PostgreSQL refuses the decision').to.be.within(500, 599);
    } finally {
      await pool.query('ALTER TABLE audit_log DROP CONSTRAINT refuse_approval');
    }
    expect((await queue(game, leaderboard)).total).to.equal(1);
    // It counts already: a rejection may not record the opposite.
    expect((await reject(game, review!.review_id).expect(409)).body.error.code).to.equal('conflict');
    expect((await queue(game, leaderboard)).total).to.equal(1);

    await approve(game, review!.review_id).expect(200);
    expect((await queue(game, leaderboard)).total).to.equal(0);
    // The held 50 is added once: 60 + 50.
    expect((await botPage(apiKey, leaderboard)).rows).to.deep.equal([[player.playerId, 110, 1]]);
    const { rows } = await pool.query('SELECT decision FROM reviews WHERE review_id = $1', [review!.review_id]);
    expect(rows).to.deep.equal([{ decision: 'approved' }]);
    expect((await approve(game, review!.review_id).expect(409)).body.error.code).to.equal('conflict');
  });

  it('when an approval is refused (the sum would not be finite), then the hold stays held for its decision', async () => {
    const leaderboard = await createLeaderboard(game, { update_strategy: 'sum', review: { above: 100 } });
    const player = await signup(game);
    await reportScore(game, player, leaderboard, 60).expect(200);
    await reportScore(game, player, leaderboard, 1e308).expect(200);
    // The game server's reports are trusted and counted at once: the counted sum nears the limit.
    await serverReport(game, player.playerId, [1.7e308], [leaderboard]);
    const [review] = (await queue(game, leaderboard)).reviews;
    expect((await approve(game, review!.review_id).expect(400)).body.error.code).to.equal('validation_failed');
    expect((await queue(game, leaderboard)).total).to.equal(1);
    // Still held: its player sees the held sum (60 + 1e308), not the counted one (60 + 1.7e308).
    expect((await ownRecord(game, leaderboard, player).expect(200)).body.score).to.equal(1e308);
    await reject(game, review!.review_id).expect(200);
    expect((await botPage(apiKey, leaderboard)).rows).to.deep.equal([[player.playerId, 1.7e308, 1]]);
  });

  it('when a gain is faster than max_gain_per_second, then it is held; a first score and a slow gain are not', async () => {
    const leaderboard = await createLeaderboard(game, { review: { max_gain_per_second: 1_000_000 } });
    const player = await signup(game);
    // A first score has no gain check, however large.
    await reportScore(game, player, leaderboard, 1e12).expect(200);
    await reportScore(game, player, leaderboard, 1e12 + 10).expect(200);
    expect((await queue(game, leaderboard)).total).to.equal(0);
    await reportScore(game, player, leaderboard, 1e13).expect(200);
    const { reviews } = await queue(game, leaderboard);
    expect(reviews.map((r) => [r.reason, r.score, r.previous_score])).to.deep.equal([['gain', 1e13, 1e12 + 10]]);
  });

  it('when a score beats the first entry by more than outlier_factor, then it is held (lower is better too)', async () => {
    const leaderboard = await createLeaderboard(game, { sort_order: 'asc', review: { outlier_factor: 0.5 } });
    const [a, b, c] = await signupMany(game, 3);
    await reportScore(game, a!, leaderboard, 100).expect(200);
    // 60 is within half of 100 below the first entry: counted.
    await reportScore(game, b!, leaderboard, 60).expect(200);
    // 20 is more than half of 60 below the first entry (60): held.
    const held = await reportScore(game, c!, leaderboard, 20).expect(200);
    expect(held.body).to.include({ rank: 1, total: 3 });
    expect((await queue(game, leaderboard)).reviews.map((r) => [r.player_id, r.reason])).to.deep.equal([[c!.playerId, 'outlier']]);
    expect((await botPage(apiKey, leaderboard)).total).to.equal(2);
  });

  it('when the game server reports, then its scores are trusted: never held', async () => {
    const leaderboard = await createLeaderboard(game, { review: { above: 1000 } });
    const player = await signup(game);
    await serverReport(game, player.playerId, [5000], [leaderboard]);
    expect((await queue(game, leaderboard)).total).to.equal(0);
    expect((await botPage(apiKey, leaderboard)).rows).to.deep.equal([[player.playerId, 5000, 1]]);
  });

  it('when a sum board holds reports, then the held amounts add up, and an approval adds them once', async () => {
    const leaderboard = await createLeaderboard(game, { update_strategy: 'sum', review: { above: 100 } });
    const player = await signup(game);
    await reportScore(game, player, leaderboard, 60).expect(200);
    expect((await reportScore(game, player, leaderboard, 50).expect(200)).body).to.include({ best_score: 110 });
    expect((await reportScore(game, player, leaderboard, 5).expect(200)).body).to.include({ best_score: 115 });
    expect((await botPage(apiKey, leaderboard)).rows).to.deep.equal([[player.playerId, 60, 1]]);
    const [review] = (await queue(game, leaderboard)).reviews;
    await approve(game, review!.review_id).expect(200);
    expect((await botPage(apiKey, leaderboard)).rows).to.deep.equal([[player.playerId, 115, 1]]);
  });

  it('when a review is asked for with an unknown or malformed id or body, then it answers a JSON error and changes nothing', async () => {
    expect((await approve(game, '3f0c6f5e-2b7a-4c1e-9d55-7a0b1c2d3e4f').expect(404)).body.error.code).to.equal('review_not_found');
    expect((await approve(game, 'not-a-review').expect(404)).body.error.code).to.equal('review_not_found');
    expect((await reject(game, "1' OR '1'='1").expect(404)).body.error.code).to.equal('review_not_found');
    const leaderboard = await createLeaderboard(game, { review: { above: 10 } });
    const player = await signup(game);
    await reportScore(game, player, leaderboard, 50).expect(200);
    const [review] = (await queue(game, leaderboard)).reviews;
    expect((await reject(game, review!.review_id, { ban: 'yes' }).expect(400)).body.error.code).to.equal('validation_failed');
    expect((await api().get('/api/v1/server/reviews?limit=0').set(secretKey(game)).expect(400)).body.error.code).to.equal(
      'validation_failed',
    );
    expect((await api().get('/api/v1/server/reviews?leaderboard_id=nope').set(secretKey(game)).expect(404)).body.error.code).to.equal(
      'leaderboard_not_found',
    );
    // Another game's key sees nothing of it.
    const other = await createGame();
    expect((await approve(other, review!.review_id).expect(404)).body.error.code).to.equal('review_not_found');
    expect((await queue(game, leaderboard)).total).to.equal(1);
  });

  describe('with the worker', () => {
    let worker: ServiceProcess;
    before(async () => {
      worker = await startWorker();
    });
    after(async () => {
      await worker.stop();
    });

    it('when Redis loses the board, then the held score comes back still held, and an approval counts it once', async () => {
      const leaderboard = await createLeaderboard(game, { review: { above: 1000 } });
      const [a, cheat] = await signupMany(game, 2);
      await reportScore(game, a!, leaderboard, 500).expect(200);
      await reportScore(game, cheat!, leaderboard, 3000).expect(200);
      const board = await internalBoard(game, leaderboard);
      await waitForPersistence(board);

      await boardLosesLiveState(board);
      expect((await ownRecord(game, leaderboard, cheat!).expect(200)).body).to.include({ score: 3000, rank: 1, total: 2 });
      expect((await botPage(apiKey, leaderboard)).total).to.equal(1);

      const [review] = (await queue(game, leaderboard)).reviews;
      await approve(game, review!.review_id).expect(200);
      expect((await botPage(apiKey, leaderboard)).rows).to.deep.equal([
        [cheat!.playerId, 3000, 1],
        [a!.playerId, 500, 2],
      ]);
      await waitForPersistence(board);
      expect(await persistedScores(board)).to.deep.equal(
        new Map([
          [cheat!.playerId, 3000],
          [a!.playerId, 500],
        ]),
      );
    });

    it('when a held score is approved, then its player holds one seat, not two: a removal of another score frees a place', async () => {
      const leaderboard = await createLeaderboard(game, { review: { above: 1000 }, max_players: 2 });
      const [a, cheat, late] = await signupMany(game, 3);
      await reportScore(game, a!, leaderboard, 100).expect(200);
      await reportScore(game, cheat!, leaderboard, 3000).expect(200);
      await approve(game, (await queue(game, leaderboard)).reviews[0]!.review_id).expect(200);
      expect((await reportScore(game, late!, leaderboard, 10).expect(409)).body.error.code).to.equal('leaderboard_full');
      await api().delete(`/api/v1/server/leaderboards/${leaderboard}/scores/${a!.playerId}`).set(secretKey(game)).expect(204);
      await reportScore(game, late!, leaderboard, 10).expect(200);
    });

    it('when a held score is rejected, then the seat it took is free again, after a rebuild too', async () => {
      const leaderboard = await createLeaderboard(game, { review: { above: 1000 }, max_players: 2 });
      const [a, cheat, late] = await signupMany(game, 3);
      await reportScore(game, a!, leaderboard, 100).expect(200);
      // Held, and seated by it (PostgreSQL too): the board is full.
      await reportScore(game, cheat!, leaderboard, 3000).expect(200);
      const board = await internalBoard(game, leaderboard);
      await waitForPersistence(board);
      expect((await reportScore(game, late!, leaderboard, 10).expect(409)).body.error.code).to.equal('leaderboard_full');
      await reject(game, (await queue(game, leaderboard)).reviews[0]!.review_id).expect(200);
      await waitForPersistence(board);
      await boardLosesLiveState(board);
      await reportScore(game, late!, leaderboard, 50).expect(200);
    });

    it('when a player with a counted score has a held one rejected, then they stay entered in their seat, after a rebuild too', async () => {
      // A board players enter: a seat freed by mistake would turn their next report away (not_entered).
      const leaderboard = await createLeaderboard(game, { review: { above: 1000 }, join_required: true, max_players: 2, listed: true });
      const [a, b, late] = await signupMany(game, 3);
      const client = (player: TestPlayer) => ({ 'Publishable-Key': game.publishableKey, 'Anonymous-Authorization': player.token });
      const enter = (player: TestPlayer) => api().post(`/api/v1/client/leaderboards/${leaderboard}/entry`).set(client(player));
      // The client's list of competitions says whether the player is entered, without entering them.
      const listed = async (player: TestPlayer) =>
        (await api().get('/api/v1/client/leaderboards?limit=100').set(client(player)).expect(200)).body.leaderboards.find(
          (board: { leaderboard_id: string }) => board.leaderboard_id === leaderboard,
        );
      await enter(a!).expect(200);
      await enter(b!).expect(200);
      await reportScore(game, a!, leaderboard, 100).expect(200);
      await reportScore(game, a!, leaderboard, 5000).expect(200);
      await reject(game, (await queue(game, leaderboard)).reviews[0]!.review_id).expect(200);
      const board = await internalBoard(game, leaderboard);
      const seated = async () => {
        expect((await enter(late!).expect(409)).body.error.code).to.equal('leaderboard_full');
        expect(await listed(a!)).to.include({ entered: true, players: 2 });
      };
      await seated();
      await waitForPersistence(board);
      await boardLosesLiveState(board);
      await seated();
      expect((await reportScore(game, a!, leaderboard, 150).expect(200)).body).to.include({ best_score: 150, rank: 1, total: 1 });
    });

    it('when the season ends with a score held, then the service rejects it (actor system) and the new season shows nothing of it', async () => {
      const leaderboard = await createLeaderboard(game, { review: { above: 1000 } });
      const cheat = await signup(game);
      await reportScore(game, cheat, leaderboard, 100).expect(200);
      await reportScore(game, cheat, leaderboard, 3000).expect(200);
      const [review] = (await queue(game, leaderboard)).reviews;
      await api().post(`/api/v1/server/leaderboards/${leaderboard}/reset`).set(secretKey(game)).expect(200);

      // Out of the queue at once (its season ended), rejected by the archive.
      expect((await queue(game, leaderboard)).total).to.equal(0);
      const decision = async () =>
        (await testStores().pool.query('SELECT decision, decided_by FROM reviews WHERE review_id = $1', [review!.review_id])).rows;
      await until(async () => (await decision())[0]?.decision === 'rejected', 'the held score to be rejected at the archive', 30_000);
      expect(await decision()).to.deep.equal([{ decision: 'rejected', decided_by: 'system' }]);
      const { body: log } = await api().get('/api/v1/server/audit_log').set(secretKey(game)).expect(200);
      const entry = log.entries.find(
        (e: { action: string; target: string }) => e.action === 'review.reject' && e.target === review!.review_id,
      );
      expect(entry).to.include({ actor: 'system' });
      await ownRecord(game, leaderboard, cheat).expect(404);
      expect((await approve(game, review!.review_id).expect(409)).body.error.code).to.equal('conflict');
    });

    it('when a hold of an ended season reaches PostgreSQL after its archive, then it is rejected as the other holds of its season were', async () => {
      const leaderboard = await createLeaderboard(game, { review: { above: 1000 } });
      const player = await signup(game);
      await reportScore(game, player, leaderboard, 100).expect(200);
      const board = await internalBoard(game, leaderboard);
      await api().post(`/api/v1/server/leaderboards/${leaderboard}/reset`).set(secretKey(game)).expect(200);
      await waitForPersistence(board);
      // The write of a report answered in season 1 just before the reset, arriving late.
      const { pool } = testStores();
      const late = new HeldScores({
        store: new ReviewStore(pool),
        transact: transactionsOn(pool),
        // No webhook wants score.held here: nothing is queued.
        events: new WebhookEvents({ store: new WebhookStore(pool), queue: undefined as unknown as WebhookQueue }),
        audit: new AuditStore(pool),
      });
      await late.record(board, 1, player.playerId, {
        heldUs: '1000',
        version: 1,
        reason: 'above',
        heldAt: new Date(),
        score: '5000',
        tiebreakers: [],
        achievedAt: undefined,
        amount: null,
        previousScore: 100,
        metadata: '',
      });
      const { rows } = await pool.query('SELECT decision, decided_by FROM reviews WHERE leaderboard_internal_id = $1', [board.internalId]);
      expect(rows).to.deep.equal([{ decision: 'rejected', decided_by: 'system' }]);
      expect((await queue(game, leaderboard)).total).to.equal(0);
    });
  });
});
