import { expect } from 'chai';
import { api, testEngine } from '../helpers/context.js';
import { createGame, createLeaderboard, internalBoard, reportScore, signup, uniqueId, type TestGame } from '../helpers/fixtures.js';
import { liveScores, persistedScores } from '../helpers/persistence.js';
import { startWorker, until } from '../helpers/processes.js';

describe('leaderboard management', () => {
  let game: TestGame;
  before(async () => {
    game = await createGame();
  });
  const put = (id: string, body: object) => api().put(`/api/v1/server/leaderboards/${id}`).set('Secret-Key', game.secretKey).send(body);

  it('when a leaderboard is created without settings, then the defaults apply and a second PUT updates it', async () => {
    const id = uniqueId('lb');
    const created = await put(id, {}).expect(201);
    expect(created.body).to.include({
      leaderboard_id: id,
      name: id,
      type: 'individual',
      sort_order: 'desc',
      client_reports: true,
      min_score: null,
      max_score: null,
    });
    const updated = await put(id, { name: 'Weekly', max_score: 500 }).expect(200);
    expect(updated.body).to.include({ name: 'Weekly', max_score: 500, sort_order: 'desc' });
    const list = await api().get('/api/v1/server/leaderboards').set('Secret-Key', game.secretKey).expect(200);
    expect(list.body.leaderboards.find((l: { leaderboard_id: string }) => l.leaderboard_id === id)).to.include({ name: 'Weekly' });
  });

  it('when a leaderboard is read back, then GET answers what PUT answered, its new season after a reset, and 404 once it is gone', async () => {
    const id = uniqueId('lb');
    const read = (leaderboardId: string, key = game.secretKey) =>
      api()
        .get(`/api/v1/server/leaderboards/${encodeURIComponent(leaderboardId)}`)
        .set('Secret-Key', key);
    const written = await put(id, {
      name: 'Weekly race',
      sort_order: 'asc',
      min_score: 0,
      reset_schedule: { cron: '0 0 * * 1', timezone: 'Europe/Paris' },
      keep_seasons: 10,
    }).expect(201);

    expect((await read(id).expect(200)).body).to.deep.equal(written.body);
    await api().post(`/api/v1/server/leaderboards/${id}/reset`).set('Secret-Key', game.secretKey).expect(200);
    const afterReset = (await read(id).expect(200)).body;
    expect(afterReset).to.deep.include({ ...written.body, season: 2, season_started_at: afterReset.season_started_at });
    expect(Date.parse(afterReset.season_started_at)).to.be.greaterThan(Date.parse(written.body.season_started_at));

    const other = await createGame();
    expect((await read(id, other.secretKey).expect(404)).body.error.code).to.equal('leaderboard_not_found');
    expect((await read(uniqueId('lb')).expect(404)).body.error.code).to.equal('leaderboard_not_found');
    expect((await read('bad id!').expect(400)).body.error.code).to.equal('validation_failed');
    await api().delete(`/api/v1/server/leaderboards/${id}`).set('Secret-Key', game.secretKey).expect(204);
    expect((await read(id).expect(404)).body.error.code).to.equal('leaderboard_not_found');
  });

  it('when type or sort_order changes once scores exist, then 409 conflict; before that it may change', async () => {
    const id = await createLeaderboard(game);
    await put(id, { sort_order: 'asc', type: 'clan' }).expect(200);
    await reportScore(game, await signup(game), id, 5).expect(200);
    expect((await put(id, { sort_order: 'desc' }).expect(409)).body.error.code).to.equal('conflict');
    await put(id, { type: 'individual' }).expect(409);
    await put(id, { name: 'Renamed', client_reports: false }).expect(200);
  });

  it('when settings are invalid, then 400 and nothing is created', async () => {
    const id = uniqueId('lb');
    for (const body of [{ type: 'team' }, { sort_order: 'up' }, { min_score: 10, max_score: 1 }, { client_reports: 'yes' }, { name: '' }]) {
      expect((await put(id, body).expect(400)).body.error.code).to.equal('validation_failed');
    }
    await put('bad id!', {}).expect(400);
    await api().delete(`/api/v1/server/leaderboards/${id}`).set('Secret-Key', game.secretKey).expect(404);
  });

  it('when review rules are set, then PUT and GET answer them, a partial object fills nulls, and null clears them', async () => {
    const id = uniqueId('lb');
    const read = async () => (await api().get(`/api/v1/server/leaderboards/${id}`).set('Secret-Key', game.secretKey).expect(200)).body;
    expect((await put(id, {}).expect(201)).body.review).to.equal(null);

    const rules = { above: -12.5, max_gain_per_second: 0, outlier_factor: 0.5 };
    const written = await put(id, { review: rules }).expect(200);
    expect(written.body.review).to.deep.equal(rules);
    expect(await read()).to.deep.equal(written.body);
    // Other settings leave the rules as they are.
    expect((await put(id, { name: 'Renamed' }).expect(200)).body.review).to.deep.equal(rules);

    const partial = await put(id, { review: { outlier_factor: 3 } }).expect(200);
    expect(partial.body.review).to.deep.equal({ above: null, max_gain_per_second: null, outlier_factor: 3 });
    expect((await read()).review).to.deep.equal(partial.body.review);

    expect((await put(id, { review: null }).expect(200)).body.review).to.equal(null);
    expect((await read()).review).to.equal(null);
  });

  it('when review rules are invalid, then 400 names the field and nothing changes', async () => {
    const id = uniqueId('lb');
    const rules = { above: 1000, max_gain_per_second: 5, outlier_factor: 2 };
    const before = (await put(id, { review: rules }).expect(201)).body;
    const invalid: [object, string][] = [
      [{ review: { max_gain_per_second: -1 } }, 'review.max_gain_per_second'],
      [{ review: { outlier_factor: 0 } }, 'review.outlier_factor'],
      [{ review: { outlier_factor: -2 } }, 'review.outlier_factor'],
      [{ review: { above: '100' } }, 'review.above'],
      [{ review: { above: 1, below: 2 } }, 'review.below'],
      [{ review: 5 }, 'review'],
      [{ review: [1000] }, 'review'],
      [{ review: 'strict' }, 'review'],
    ];
    for (const [body, field] of invalid) {
      const res = await put(id, body).expect(400);
      expect(res.body.error.code, JSON.stringify(body)).to.equal('validation_failed');
      expect(
        res.body.error.details.map((detail: { field: string }) => detail.field),
        JSON.stringify(body),
      ).to.deep.equal([field]);
    }
    // A new board is not created by an invalid body either.
    const unborn = uniqueId('lb');
    await put(unborn, { review: { outlier_factor: 0 } }).expect(400);
    await api().get(`/api/v1/server/leaderboards/${unborn}`).set('Secret-Key', game.secretKey).expect(404);
    const after = (await api().get(`/api/v1/server/leaderboards/${id}`).set('Secret-Key', game.secretKey).expect(200)).body;
    expect(after).to.deep.equal(before);
  });

  it("when another game's secret key is used, then it sees none of this game's leaderboards", async () => {
    const id = await createLeaderboard(game);
    const other = await createGame();
    const list = await api().get('/api/v1/server/leaderboards').set('Secret-Key', other.secretKey).expect(200);
    expect(list.body.leaderboards).to.deep.equal([]);
    await api().delete(`/api/v1/server/leaderboards/${id}`).set('Secret-Key', other.secretKey).expect(404);
  });

  it('when a leaderboard is deleted, then its scores are gone everywhere and queued jobs do not bring them back', async function () {
    this.timeout(30_000);
    const id = await createLeaderboard(game);
    const player = await signup(game);
    await reportScore(game, player, id, 77).expect(200);
    const board = await internalBoard(game, id);
    await api().delete(`/api/v1/server/leaderboards/${id}`).set('Secret-Key', game.secretKey).expect(204);
    // A worker started only now finds the job queued before the deletion.
    const worker = await startWorker();
    try {
      await until(async () => {
        const { waiting, active, delayed } = await testEngine().maintenance.jobCounts();
        return waiting + active + delayed === 0;
      }, 'the queued jobs to be processed');
      expect(await persistedScores(board)).to.have.property('size', 0);
      expect(await liveScores(board)).to.have.property('size', 0);
      await api().get(`/api/v1/client/leaderboards/${id}/players/${player.playerId}`).set('Secret-Key', game.secretKey).expect(404);
      await createLeaderboard(game, {}, id);
      const fresh = await api()
        .get(`/api/v1/client/leaderboards/${id}/players/${player.playerId}`)
        .set('Secret-Key', game.secretKey)
        .expect(404);
      expect(fresh.body.error.code).to.equal('record_not_found');
    } finally {
      await worker.stop();
    }
  });

  it('when a game has more leaderboards than a page, then the list pages them oldest first with total, limit and offset', async () => {
    const owner = await createGame();
    const ids: string[] = [];
    for (let i = 0; i < 7; i += 1) ids.push(await createLeaderboard(owner, {}, `page-${i}-${uniqueId('lb')}`));
    const page = (query: string) => api().get(`/api/v1/server/leaderboards${query}`).set('Secret-Key', owner.secretKey);

    const first = await page('?limit=3').expect(200);
    expect(first.body).to.include({ total: 7, limit: 3, offset: 0 });
    expect(first.body.leaderboards.map((l: { leaderboard_id: string }) => l.leaderboard_id)).to.deep.equal(ids.slice(0, 3));
    const last = await page('?limit=3&offset=6').expect(200);
    expect(last.body.leaderboards.map((l: { leaderboard_id: string }) => l.leaderboard_id)).to.deep.equal(ids.slice(6));
    const all = await page('').expect(200);
    expect(all.body).to.include({ total: 7, limit: 50, offset: 0 });
    expect(all.body.leaderboards).to.have.length(7);

    for (const bad of ['?limit=0', '?limit=1001', '?offset=-1', '?limit=abc']) {
      expect((await page(bad).expect(400)).body.error.code).to.equal('validation_failed');
    }
  });
});
