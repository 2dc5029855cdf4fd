import { expect } from 'chai';
import request from 'supertest';
import { api, testStores } from '../helpers/context.js';
import { checkAgainstOpenApi } from '../helpers/openapi-check.js';
import { createGame, createLeaderboard, internalBoard, namedPlayer, reportScores, secretKey, type TestGame } from '../helpers/fixtures.js';
import { startApi, startWorker, until, type ServiceProcess } from '../helpers/processes.js';
import { openEventStream } from '../helpers/event-stream.js';
import { RELAXED, Receiver, verified } from '../helpers/webhook-receiver.js';

describe('webhooks: registration, signed deliveries, retries and the delivery log', function () {
  this.timeout(120_000);
  let receiver: Receiver;
  let relaxedApi: ServiceProcess;
  let worker: ServiceProcess | undefined;
  let game: TestGame;
  /** Requests to the API process that allows the local receiver, each answer checked against the OpenAPI document. */
  const relaxed = () => {
    const agent = request(relaxedApi.url);
    return {
      get: (path: string) => agent.get(path).set(secretKey(game)).expect(checkAgainstOpenApi),
      post: (path: string) => agent.post(path).set(secretKey(game)).expect(checkAgainstOpenApi),
      patch: (path: string) => agent.patch(path).set(secretKey(game)).expect(checkAgainstOpenApi),
    };
  };
  const register = async (path: string) => {
    const res = await relaxed()
      .post('/api/v1/server/webhooks')
      .send({ url: receiver.url(path), events: ['season.ended'] })
      .expect(201);
    return { id: res.body.webhook_id as string, secret: res.body.secret as string };
  };
  const deliveries = async (id: string) =>
    (await relaxed().get(`/api/v1/server/webhooks/${id}/deliveries`).expect(200)).body.deliveries as Record<string, unknown>[];

  before(async () => {
    receiver = new Receiver();
    await receiver.start();
    relaxedApi = await startApi(RELAXED);
    worker = await startWorker(RELAXED);
    game = await createGame();
  });
  after(async () => {
    await Promise.all([worker?.stop(), relaxedApi.stop()]);
    await receiver.stop();
  });

  it('when a webhook is registered, listed, changed, rotated and removed, then the secret is shown only when made and every change is audited without it', async () => {
    const own = await createGame();
    const board = await createLeaderboard(own);
    const created = await api()
      .post('/api/v1/server/webhooks')
      .set(secretKey(own))
      .send({ url: 'https://hooks.example.com/events?token=hidden', events: ['player.overtaken'], leaderboard_ids: [board] })
      .expect(201);
    expect(created.body).to.include({ url: 'https://hooks.example.com/events?token=hidden', enabled: true });
    expect(created.body.secret).to.match(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(created.body.leaderboard_ids).to.deep.equal([board]);
    const id = created.body.webhook_id;

    const listed = await api().get('/api/v1/server/webhooks').set(secretKey(own)).expect(200);
    expect(listed.body.total).to.equal(1);
    expect(listed.body.webhooks[0]).to.not.have.property('secret');

    const changed = await api()
      .patch(`/api/v1/server/webhooks/${id}`)
      .set(secretKey(own))
      .send({ events: ['season.ended', 'player.moved'], leaderboard_ids: null, enabled: false })
      .expect(200);
    expect(changed.body).to.include({ enabled: false, leaderboard_ids: null });
    expect(changed.body.events).to.deep.equal(['season.ended', 'player.moved']);

    const rotated = await api().post(`/api/v1/server/webhooks/${id}/secret`).set(secretKey(own)).expect(200);
    expect(rotated.body.secret)
      .to.match(/^whsec_/)
      .and.not.equal(created.body.secret);

    await api().delete(`/api/v1/server/webhooks/${id}`).set(secretKey(own)).expect(204);
    const gone = await api().patch(`/api/v1/server/webhooks/${id}`).set(secretKey(own)).send({ enabled: true }).expect(404);
    expect(gone.body.error.code).to.equal('webhook_not_found');

    const log = await api().get('/api/v1/server/audit_log').set(secretKey(own)).expect(200);
    const actions = log.body.entries.map((entry: { action: string }) => entry.action);
    expect(actions).to.include.members(['webhook.create', 'webhook.update', 'webhook.rotate_secret', 'webhook.delete']);
    const text = JSON.stringify(log.body);
    expect(text).to.not.include('whsec_').and.not.include('hidden');
    expect(text).to.include('https://hooks.example.com/events');
  });

  it('when 25 webhooks are registered at once, then exactly 20 are, and the others answer 409', async () => {
    const own = await createGame();
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        api()
          .post('/api/v1/server/webhooks')
          .set(secretKey(own))
          .send({ url: `https://hooks.example.com/${i}`, events: ['season.ended'] }),
      ),
    );
    expect(answers.filter((res) => res.status === 201)).to.have.length(20);
    const refused = answers.filter((res) => res.status !== 201);
    expect(refused.map((res) => [res.status, res.body.error.code])).to.deep.equal(Array(5).fill([409, 'conflict']));
    const listed = await api().get('/api/v1/server/webhooks?limit=100').set(secretKey(own)).expect(200);
    expect(listed.body.total).to.equal(20);
  });

  it('when a URL would reach a loopback, private, link-local, metadata or mapped address, or is not https, then it is refused at creation and nothing is stored', async () => {
    const own = await createGame();
    const refused = [
      'http://hooks.example.com/',
      'https://user:pass@hooks.example.com/',
      'https://localhost/',
      'https://127.0.0.1/',
      'https://10.0.0.1/',
      'https://172.16.5.4/',
      'https://192.168.0.1/',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/',
      'https://0.0.0.0/',
      'https://[::1]/',
      'https://[fd00::1]/',
      'https://[fe80::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[64:ff9b::a00:1]/',
      'ftp://hooks.example.com/',
      'not a url',
    ];
    for (const url of refused) {
      const res = await api()
        .post('/api/v1/server/webhooks')
        .set(secretKey(own))
        .send({ url, events: ['season.ended'] });
      expect([res.status, res.body.error?.code, res.body.error?.details?.[0]?.field], url).to.deep.equal([400, 'validation_failed', 'url']);
    }
    const unknownBoard = await api()
      .post('/api/v1/server/webhooks')
      .set(secretKey(own))
      .send({ url: 'https://hooks.example.com/', events: ['season.ended'], leaderboard_ids: ['no_such_board'] });
    expect([unknownBoard.status, unknownBoard.body.error.code]).to.deep.equal([404, 'leaderboard_not_found']);
    for (const events of [[], ['no.such.event'], ['season.ended', 'season.ended']]) {
      const res = await api().post('/api/v1/server/webhooks').set(secretKey(own)).send({ url: 'https://hooks.example.com/', events });
      expect(res.status, JSON.stringify(events)).to.equal(400);
    }
    const listed = await api().get('/api/v1/server/webhooks').set(secretKey(own)).expect(200);
    expect(listed.body.total).to.equal(0);
  });

  it('when a test event is sent, then the receiver gets one POST whose Standard Webhooks signature verifies, and the log shows it delivered', async () => {
    const { id, secret } = await register('/ok/test');
    const queued = await relaxed().post(`/api/v1/server/webhooks/${id}/test`).expect(202);
    await until(() => receiver.at('/ok/test').length === 1, 'the test delivery');
    const [delivery] = receiver.at('/ok/test');
    const payload = verified(secret, delivery!);
    expect(payload).to.include({ type: 'webhook.test' });
    expect(payload.data).to.deep.equal({ webhook_id: id });
    expect(delivery!.headers['webhook-id']).to.equal(queued.body.event_id);
    expect(delivery!.headers['content-type']).to.equal('application/json');
    await until(async () => (await deliveries(id))[0]?.status === 'delivered', 'the attempt logged');
    const [logged] = await deliveries(id);
    expect(logged).to.include({
      event_id: queued.body.event_id,
      type: 'webhook.test',
      attempt: 1,
      status: 'delivered',
      response_status: 200,
      error: null,
    });
  });

  it('when the receiver fails once, then the event is retried with the same webhook-id and delivered, each attempt in the log', async () => {
    const { id, secret } = await register('/fail-once/a');
    const queued = await relaxed().post(`/api/v1/server/webhooks/${id}/test`).expect(202);
    await until(() => receiver.at('/fail-once/a').length === 2, 'the retry', 30_000);
    const [first, second] = receiver.at('/fail-once/a');
    expect([first!.headers['webhook-id'], second!.headers['webhook-id']]).to.deep.equal([queued.body.event_id, queued.body.event_id]);
    verified(secret, second!);
    await until(async () => (await deliveries(id))[0]?.status === 'delivered', 'the retry logged');
    const log = await deliveries(id);
    expect(log.map((each) => [each.attempt, each.status, each.response_status, each.error])).to.deep.equal([
      [2, 'delivered', 200, null],
      [1, 'failed', 500, 'http_status'],
    ]);
  });

  it('when the receiver answers 410 Gone, then the webhook is turned off (audited as the system) and sends nothing more', async () => {
    const { id } = await register('/gone/a');
    await relaxed().post(`/api/v1/server/webhooks/${id}/test`).expect(202);
    await until(async () => (await deliveries(id))[0]?.status === 'failed', 'the refused delivery');
    const listed = await relaxed().get('/api/v1/server/webhooks?limit=100').expect(200);
    expect(listed.body.webhooks.find((each: { webhook_id: string }) => each.webhook_id === id).enabled).to.equal(false);
    const log = await relaxed().get('/api/v1/server/audit_log').expect(200);
    expect(
      log.body.entries.find((entry: { action: string; target: string }) => entry.action === 'webhook.disable' && entry.target === id),
    ).to.include({
      actor: 'system',
    });
    await relaxed().post(`/api/v1/server/webhooks/${id}/test`).expect(202);
    await until(async () => (await deliveries(id)).length === 2 && (await deliveries(id))[0]!.status !== 'pending', 'the second test');
    expect((await deliveries(id))[0]).to.include({ status: 'failed', error: 'webhook_disabled', response_status: null });
    expect(receiver.at('/gone/a')).to.have.length(1);
  });

  it('when a receiver takes 20 s to answer, then another webhook’s deliveries go on meanwhile', async () => {
    const slow = await register('/slow/a');
    const fast = await register('/ok/beside-slow');
    for (let i = 0; i < 6; i++) await relaxed().post(`/api/v1/server/webhooks/${slow.id}/test`).expect(202);
    await until(() => receiver.at('/slow/a').length >= 1, 'the slow receiver reached');
    const sentAt = Date.now();
    await relaxed().post(`/api/v1/server/webhooks/${fast.id}/test`).expect(202);
    await until(() => receiver.at('/ok/beside-slow').length === 1, 'the other webhook’s delivery');
    // Delivered while every attempt to the slow receiver still waited on its answer, of which at most 4 at once.
    expect((await deliveries(slow.id)).every((each) => each.status === 'pending')).to.equal(true);
    expect(receiver.at('/slow/a').length).to.be.within(1, 4);
    expect(receiver.at('/ok/beside-slow')[0]!.at - sentAt).to.be.below(10_000);
    // The slow receiver's attempts give up after 10 s.
    await until(async () => (await deliveries(slow.id)).some((each) => each.status === 'failed'), 'the first timeout', 30_000);
    expect((await deliveries(slow.id)).find((each) => each.status === 'failed')).to.include({ error: 'timeout', response_status: null });
  });

  it('when an attempt is sent again, then the receiver gets the same event under the same webhook-id, as a new attempt', async () => {
    const { id, secret } = await register('/ok/again');
    const queued = await relaxed().post(`/api/v1/server/webhooks/${id}/test`).expect(202);
    await until(async () => (await deliveries(id))[0]?.status === 'delivered', 'the first delivery');
    const [first] = await deliveries(id);
    const again = await relaxed().post(`/api/v1/server/webhooks/${id}/deliveries/${first!.delivery_id}/redeliver`).expect(202);
    expect(again.body).to.deep.equal({ event_id: queued.body.event_id, attempt: 2 });
    await until(() => receiver.at('/ok/again').length === 2, 'the redelivery');
    const [one, two] = receiver.at('/ok/again');
    expect(two!.headers['webhook-id']).to.equal(one!.headers['webhook-id']);
    expect(verified(secret, two!)).to.deep.equal(verified(secret, one!));
    const missing = await relaxed().post(`/api/v1/server/webhooks/${id}/deliveries/999999999/redeliver`).expect(404);
    expect(missing.body.error.code).to.equal('delivery_not_found');
    const other = await createGame();
    const foreign = await request(relaxedApi.url)
      .post(`/api/v1/server/webhooks/${id}/deliveries/${first!.delivery_id}/redeliver`)
      .set(secretKey(other));
    expect([foreign.status, foreign.body.error.code]).to.deep.equal([404, 'webhook_not_found']);
  });

  it('when the worker is SIGKILLed while an attempt waits on the receiver, then the next worker makes it again and it is delivered', async () => {
    const { id } = await register('/hang-once/a');
    const queued = await relaxed().post(`/api/v1/server/webhooks/${id}/test`).expect(202);
    await until(() => receiver.at('/hang-once/a').length === 1, 'the attempt under way');
    worker!.child.kill('SIGKILL');
    await new Promise((resolve) => (worker!.child.exitCode !== null ? resolve(null) : worker!.child.once('exit', resolve)));
    worker = await startWorker(RELAXED);
    await until(() => receiver.at('/hang-once/a').length === 2, 'the attempt made again', 60_000);
    expect(receiver.at('/hang-once/a').map((each) => each.headers['webhook-id'])).to.deep.equal([
      queued.body.event_id,
      queued.body.event_id,
    ]);
    await until(async () => (await deliveries(id))[0]?.status === 'delivered', 'the attempt logged');
  });

  it('when a webhook’s URL reaches a private address at delivery time, then a worker that refuses private addresses does not connect, and logs why', async () => {
    const { id } = await register('/ok/private');
    await worker!.stop();
    worker = await startWorker({ WEBHOOK_ALLOW_HTTP: '1' });
    try {
      await relaxed().post(`/api/v1/server/webhooks/${id}/test`).expect(202);
      await until(async () => (await deliveries(id)).some((each) => each.status === 'failed'), 'the refused attempt');
      const first = (await deliveries(id)).find((each) => each.attempt === 1);
      expect(first).to.include({ status: 'failed', error: 'address_not_allowed', response_status: null });
      expect(receiver.at('/ok/private')).to.have.length(0);
    } finally {
      await worker.stop();
      worker = await startWorker(RELAXED);
    }
  });
  it('when a season ends, then each webhook wanting season.ended for that board gets its total and first 10 entries, with a sequence that grows per board', async () => {
    const board = await createLeaderboard(game);
    const other = await createLeaderboard(game);
    const subscribe = async (path: string, settings: Record<string, unknown>) =>
      (
        await relaxed()
          .post('/api/v1/server/webhooks')
          .send({ url: receiver.url(path), ...settings })
          .expect(201)
      ).body as {
        webhook_id: string;
        secret: string;
      };
    const wanting = await subscribe('/ok/season-ended', { events: ['season.ended'], leaderboard_ids: [board] });
    await subscribe('/ok/other-board', { events: ['season.ended'], leaderboard_ids: [other] });
    await subscribe('/ok/other-type', { events: ['player.overtaken'] });
    const players = await Promise.all(['Ada', 'Bo', 'Cy'].map((name) => namedPlayer(game, name)));
    await reportScores(game, board, [
      [players[0]!, 30],
      [players[1]!, 10],
      [players[2]!, 20],
    ]);
    await api().post(`/api/v1/server/leaderboards/${board}/reset`).set(secretKey(game)).expect(200);
    await until(() => receiver.at('/ok/season-ended').length === 1, 'season.ended', 30_000);
    const first = verified(wanting.secret, receiver.at('/ok/season-ended')[0]!);
    expect(first).to.include({ type: 'season.ended', sequence: 1 });
    expect(first.data).to.include({ leaderboard_id: board, season: 1, total: 3 });
    expect(first.data.top).to.deep.equal([
      { player_id: players[0]!.playerId, display_name: 'Ada', score: 30, rank: 1 },
      { player_id: players[2]!.playerId, display_name: 'Cy', score: 20, rank: 2 },
      { player_id: players[1]!.playerId, display_name: 'Bo', score: 10, rank: 3 },
    ]);
    await reportScores(game, board, [[players[1]!, 5]]);
    await api().post(`/api/v1/server/leaderboards/${board}/reset`).set(secretKey(game)).expect(200);
    await until(() => receiver.at('/ok/season-ended').length === 2, 'the second season.ended', 30_000);
    const second = verified(wanting.secret, receiver.at('/ok/season-ended')[1]!);
    expect(second).to.include({ sequence: 2 });
    expect(second.data).to.include({ season: 2, total: 1 });
    // Nothing for a webhook of another board, or of another type.
    expect(receiver.at('/ok/other-board')).to.have.length(0);
    expect(receiver.at('/ok/other-type')).to.have.length(0);

    // An erased player's name leaves the stored event: a redelivery sends their id only.
    await api().delete(`/api/v1/server/players/${players[1]!.playerId}`).set(secretKey(game)).expect(204);
    const [delivered] = (await deliveries(wanting.webhook_id)).filter(
      (each) => each.event_id === receiver.at('/ok/season-ended')[0]!.headers['webhook-id'],
    );
    await relaxed().post(`/api/v1/server/webhooks/${wanting.webhook_id}/deliveries/${delivered!.delivery_id}/redeliver`).expect(202);
    await until(() => receiver.at('/ok/season-ended').length === 3, 'the redelivery after the erasure');
    const again = verified(wanting.secret, receiver.at('/ok/season-ended')[2]!);
    expect(again.sequence).to.equal(1);
    expect((again.data.top as Record<string, unknown>[])[2]).to.deep.equal({
      player_id: players[1]!.playerId,
      display_name: null,
      score: 10,
      rank: 3,
    });
    expect(receiver.at('/ok/season-ended')[2]!.body).to.not.include('"Bo"');
  });
  it('when a board’s window closes, then a webhook wanting leaderboard.closed gets its total and first entries once, within 5 s of the close', async () => {
    const own = await createGame();
    const closesAt = new Date(Date.now() + 3000);
    const board = await createLeaderboard(own, { closes_at: closesAt.toISOString() });
    const hook = await request(relaxedApi.url)
      .post('/api/v1/server/webhooks')
      .set(secretKey(own))
      .send({ url: receiver.url('/ok/closed'), events: ['leaderboard.closed'], leaderboard_ids: [board] })
      .expect(201);
    const [ada, bo] = await Promise.all(['Ada', 'Bo'].map((name) => namedPlayer(own, name)));
    await reportScores(own, board, [
      [ada!, 7],
      [bo!, 9],
    ]);

    await until(() => receiver.at('/ok/closed').length === 1, 'leaderboard.closed', 15_000);
    expect(receiver.at('/ok/closed')[0]!.at - closesAt.getTime(), 'ms after the close').to.be.below(5000);
    const closed = verified(hook.body.secret, receiver.at('/ok/closed')[0]!);
    expect(closed).to.include({ type: 'leaderboard.closed', sequence: 1 });
    expect(closed.data).to.deep.equal({
      leaderboard_id: board,
      season: 1,
      at: closesAt.toISOString(),
      total: 2,
      top: [
        { player_id: bo!.playerId, display_name: 'Bo', score: 9, rank: 1 },
        { player_id: ada!.playerId, display_name: 'Ada', score: 7, rank: 2 },
      ],
    });
    // Recorded once: the worker's next rounds find it recorded.
    await new Promise((resolve) => setTimeout(resolve, 4500));
    expect(receiver.at('/ok/closed')).to.have.length(1);
  });

  it('when a league season ends, then a webhook wanting player.moved gets one event per member moved to another tier', async () => {
    const own = await createGame();
    const board = await createLeaderboard(own, { groups: { size: 5, tiers: ['bronze', 'silver', 'gold'], promote: 2, relegate: 1 } });
    const hook = await request(relaxedApi.url)
      .post('/api/v1/server/webhooks')
      .set(secretKey(own))
      .send({ url: receiver.url('/ok/moved'), events: ['player.moved'], leaderboard_ids: [board] })
      .expect(201);
    const players = await Promise.all(['A', 'B', 'C', 'D', 'E'].map((name) => namedPlayer(own, name)));
    await reportScores(
      own,
      board,
      players.map((player, i) => [player, 50 - 10 * i]),
    );
    await api().post(`/api/v1/server/leaderboards/${board}/reset`).set(secretKey(own)).expect(200);

    await until(() => receiver.at('/ok/moved').length === 2, 'two player.moved events', 30_000);
    const events = receiver
      .at('/ok/moved')
      .map((delivery) => verified(hook.body.secret, delivery))
      .sort((a, b) => Number(a.sequence) - Number(b.sequence));
    expect(events.map((event) => [event.type, event.sequence])).to.deep.equal([
      ['player.moved', 1],
      ['player.moved', 2],
    ]);
    // The best two go up from the lowest tier; nobody goes below it.
    expect(events.map((event) => event.data)).to.deep.equal([
      { leaderboard_id: board, season: 1, player_id: players[0]!.playerId, from_tier: 'bronze', to_tier: 'silver', group_rank: 1 },
      { leaderboard_id: board, season: 1, player_id: players[1]!.playerId, from_tier: 'bronze', to_tier: 'silver', group_rank: 2 },
    ]);
  });

  it('when a report passes players within notify_top, then a webhook wanting player.overtaken gets one event per player passed, nearest first, and the passed player’s token stream gets it too', async () => {
    const own = await createGame();
    const board = await createLeaderboard(own, { notify_top: 2 });
    const hook = await request(relaxedApi.url)
      .post('/api/v1/server/webhooks')
      .set(secretKey(own))
      .send({ url: receiver.url('/ok/overtaken'), events: ['player.overtaken'], leaderboard_ids: [board] })
      .expect(201);
    const [first, second, third, climber] = await Promise.all(['A', 'B', 'C', 'D'].map((name) => namedPlayer(own, name)));
    await api()
      .patch(`/api/v1/server/players/${climber!.playerId}`)
      .set(secretKey(own))
      .send({ aliases: { discord: 'd-climber' } })
      .expect(200);
    // One after another, best first: nobody is passed before the climber reports.
    for (const [player, score] of [
      [first!, 50],
      [second!, 40],
      [third!, 30],
    ] as const) {
      await reportScores(own, board, [[player, score]]);
    }
    // The second player watches the board from another API process than the one the report reaches.
    const stream = await openEventStream(`${relaxedApi.url}/api/v1/client/leaderboards/${board}/live?limit=3`, {
      'Anonymous-Authorization': second!.token,
    });
    expect((await stream.next()).event).to.equal('top');
    // A refused report (out of the score range) overtakes nobody.
    await api()
      .post(`/api/v1/client/leaderboards/${board}/report_score`)
      .set('Publishable-Key', own.publishableKey)
      .set('Anonymous-Authorization', climber!.token)
      .send({ score: 'sixty' })
      .expect(400);
    await api()
      .post(`/api/v1/client/leaderboards/${board}/report_score`)
      .set('Publishable-Key', own.publishableKey)
      .set('Anonymous-Authorization', climber!.token)
      .send({ score: 60 })
      .expect(200);

    const streamed = [await stream.next(5000), await stream.next(5000)].find((event) => event.event === 'overtaken');
    stream.close();
    const by = { player_id: climber!.playerId, display_name: 'D', score: 60 };
    expect(JSON.parse(streamed!.data)).to.deep.equal({
      leaderboard_id: board,
      season: 1,
      player_id: second!.playerId,
      previous_rank: 2,
      rank: 3,
      by,
    });

    await until(() => receiver.at('/ok/overtaken').length === 2, 'two player.overtaken events', 30_000);
    const events = receiver
      .at('/ok/overtaken')
      .map((delivery) => verified(hook.body.secret, delivery))
      .sort((a, b) => Number(a.sequence) - Number(b.sequence));
    // The third player ranked 3rd before: beyond notify_top 2.
    const withAliases = { ...by, aliases: { discord: 'd-climber' } };
    expect(events.map((event) => [event.type, event.sequence, event.data])).to.deep.equal([
      [
        'player.overtaken',
        1,
        { leaderboard_id: board, season: 1, player_id: first!.playerId, aliases: {}, previous_rank: 1, rank: 2, by: withAliases },
      ],
      [
        'player.overtaken',
        2,
        { leaderboard_id: board, season: 1, player_id: second!.playerId, aliases: {}, previous_rank: 2, rank: 3, by: withAliases },
      ],
    ]);
    // The records left Redis once stored.
    const { redis, keys } = testStores();
    expect(await redis.xlen(keys(await internalBoard(own, board)).overtaken)).to.equal(0);

    // An erased climber's name and aliases leave the stored events: a redelivery sends their id only.
    await api().delete(`/api/v1/server/players/${climber!.playerId}`).set(secretKey(own)).expect(204);
    const log = await request(relaxedApi.url)
      .get(`/api/v1/server/webhooks/${hook.body.webhook_id}/deliveries`)
      .set(secretKey(own))
      .expect(200);
    const firstDelivery = (log.body.deliveries as { delivery_id: number; event_id: string }[]).find(
      (each) => each.event_id === receiver.at('/ok/overtaken')[0]!.headers['webhook-id'],
    );
    await request(relaxedApi.url)
      .post(`/api/v1/server/webhooks/${hook.body.webhook_id}/deliveries/${firstDelivery!.delivery_id}/redeliver`)
      .set(secretKey(own))
      .expect(202);
    await until(() => receiver.at('/ok/overtaken').length === 3, 'the redelivery after the erasure');
    const again = verified(hook.body.secret, receiver.at('/ok/overtaken')[2]!);
    expect(again.data.by).to.deep.equal({ player_id: climber!.playerId, display_name: null, aliases: {}, score: 60 });
    expect(receiver.at('/ok/overtaken')[2]!.body).to.not.include('d-climber');
  });

  it('when a client report is held for review, then a webhook wanting score.held gets one event for the hold, none for the reports joining it or the server', async () => {
    const own = await createGame();
    const board = await createLeaderboard(own, { review: { above: 100 } });
    const hook = await request(relaxedApi.url)
      .post('/api/v1/server/webhooks')
      .set(secretKey(own))
      .send({ url: receiver.url('/ok/held'), events: ['score.held'], leaderboard_ids: [board] })
      .expect(201);
    const [cheat, trusted] = await Promise.all([namedPlayer(own, 'Cheat'), namedPlayer(own, 'Trusted')]);
    const report = (score: number) =>
      api()
        .post(`/api/v1/client/leaderboards/${board}/report_score`)
        .set('Publishable-Key', own.publishableKey)
        .set('Anonymous-Authorization', cheat!.token)
        .send({ score })
        .expect(200);
    await report(50);
    await report(500);
    await report(600);
    await api()
      .post('/api/v1/server/report_scores')
      .set(secretKey(own))
      .send({ player_id: trusted!.playerId, leaderboard_ids: [board], scores: [900] })
      .expect(200);

    await until(() => receiver.at('/ok/held').length === 1, 'the score.held event', 30_000);
    const [event] = receiver.at('/ok/held').map((delivery) => verified(hook.body.secret, delivery));
    const { body: queue } = await api().get(`/api/v1/server/reviews?leaderboard_id=${board}`).set(secretKey(own)).expect(200);
    expect(queue.total).to.equal(1);
    expect(event!.type).to.equal('score.held');
    expect(event!.data).to.deep.equal({
      review_id: queue.reviews[0].review_id,
      leaderboard_id: board,
      season: 1,
      player_id: cheat!.playerId,
      score: 500,
      previous_score: 50,
      reason: 'above',
      held_at: queue.reviews[0].held_at,
    });
    // Nothing more comes: the joined report and the server's trusted one are no new hold.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(receiver.at('/ok/held')).to.have.length(1);
  });

  it('when a shadow-banned player reports, then no event names them: no score.held, no player.overtaken', async () => {
    const own = await createGame();
    const board = await createLeaderboard(own, { notify_top: 5, review: { above: 100 } });
    const hook = await request(relaxedApi.url)
      .post('/api/v1/server/webhooks')
      .set(secretKey(own))
      .send({ url: receiver.url('/ok/shadow'), events: ['player.overtaken', 'score.held'], leaderboard_ids: [board] })
      .expect(201);
    const [leader, cheat, sentinel] = await Promise.all(['L', 'S', 'H'].map((name) => namedPlayer(own, name)));
    await reportScores(own, board, [[leader!, 50]]);
    await api().post(`/api/v1/server/players/${cheat!.playerId}/ban`).set(secretKey(own)).send({ shadow: true }).expect(200);
    const report = (player: { token: string }, score: number) =>
      api()
        .post(`/api/v1/client/leaderboards/${board}/report_score`)
        .set('Publishable-Key', own.publishableKey)
        .set('Anonymous-Authorization', player.token)
        .send({ score })
        .expect(200);
    // Past the leader, and past the review limit: either would make an event for anyone else.
    await report(cheat!, 60);
    await report(cheat!, 500);
    // The next player's hold is the one event.
    await report(sentinel!, 700);

    await until(() => receiver.at('/ok/shadow').length >= 1, 'the score.held event of the next hold', 30_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const events = receiver.at('/ok/shadow').map((delivery) => verified(hook.body.secret, delivery));
    expect(events.map((event) => [event.type, event.data.player_id])).to.deep.equal([['score.held', sentinel!.playerId]]);
  });

  it('when the API is SIGKILLed right after answering reports, then their player.overtaken and score.held events are delivered all the same', async () => {
    const own = await createGame();
    const board = await createLeaderboard(own, { notify_top: 5, review: { above: 100 } });
    const hook = await request(relaxedApi.url)
      .post('/api/v1/server/webhooks')
      .set(secretKey(own))
      .send({ url: receiver.url('/ok/killed'), events: ['player.overtaken', 'score.held'], leaderboard_ids: [board] })
      .expect(201);
    const [leader, climber, cheat] = await Promise.all(['L', 'C', 'X'].map((name) => namedPlayer(own, name)));
    await reportScores(own, board, [[leader!, 50]]);
    const doomed = await startApi(RELAXED);
    const report = (player: { token: string }, score: number) =>
      request(doomed.url)
        .post(`/api/v1/client/leaderboards/${board}/report_score`)
        .set('Publishable-Key', own.publishableKey)
        .set('Anonymous-Authorization', player.token)
        .send({ score })
        .expect(200);
    await report(climber!, 60);
    await report(cheat!, 500);
    doomed.child.kill('SIGKILL');

    await until(() => receiver.at('/ok/killed').length === 2, 'both events', 30_000);
    const events = receiver.at('/ok/killed').map((delivery) => verified(hook.body.secret, delivery));
    expect(events.map((event) => [event.type, event.data.player_id]).sort()).to.deep.equal(
      [
        ['player.overtaken', leader!.playerId],
        ['score.held', cheat!.playerId],
      ].sort(),
    );
  });

  it('when a webhook has 100 attempts waiting, then a test event is refused with 409 and nothing is queued', async () => {
    const { id } = await register('/ok/full');
    // 100 attempts due tomorrow, straight into PostgreSQL (no job wakes them).
    await testStores().pool.query(
      `WITH e AS (INSERT INTO webhook_events (id, game_id, type, body) VALUES ($1, $2, 'webhook.test', '{}') RETURNING id)
       INSERT INTO webhook_deliveries (webhook_id, event_id, attempt, status, at)
       SELECT $3, e.id, n, 'pending', now() + interval '1 day' FROM e, generate_series(1, 100) AS n`,
      [`msg_full_${id}`, game.gameId, id],
    );
    const refused = await relaxed().post(`/api/v1/server/webhooks/${id}/test`).expect(409);
    expect(refused.body.error.code).to.equal('conflict');
    expect(await deliveries(id)).to.have.length(50);
    expect(receiver.at('/ok/full')).to.have.length(0);
  });
});
