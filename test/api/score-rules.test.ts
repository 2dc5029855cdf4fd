import { Cluster } from 'ioredis';
import { expect } from 'chai';
import { api, testStores } from '../helpers/context.js';
import {
  createClan,
  createGame,
  createLeaderboard,
  createThirdPartyKey,
  internalBoard,
  joinClan,
  secretKey,
  signup,
  signupMany,
  uniqueId,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';
import { liveClanTotals, liveScores, persistedClanTotals, persistedScores, waitForPersistence } from '../helpers/persistence.js';
import { startWorker, type ServiceProcess } from '../helpers/processes.js';

/**
 * Score rules (update_strategy best|latest|sum), metadata kept with the score, and the bounds on
 * what a report may carry: what a game sees in its answers and reads, what PostgreSQL ends up
 * holding, and what a rebuild after a Redis data loss brings back.
 */

type Body = Record<string, unknown>;

function report(game: TestGame, player: TestPlayer, leaderboard: string, body: Body | string, key?: string) {
  const req = api()
    .post(`/api/v1/client/leaderboards/${leaderboard}/report_score`)
    .set('Publishable-Key', game.publishableKey)
    .set('Anonymous-Authorization', player.token);
  if (key !== undefined) req.set('Idempotency-Key', key);
  if (typeof body === 'string') req.set('Content-Type', 'application/json');
  return req.send(body);
}

function batch(game: TestGame, body: Body | string, key?: string) {
  const req = api().post('/api/v1/server/report_scores').set(secretKey(game));
  if (key !== undefined) req.set('Idempotency-Key', key);
  if (typeof body === 'string') req.set('Content-Type', 'application/json');
  return req.send(body);
}

const record = (game: TestGame, leaderboard: string, playerId: string, query = '') =>
  api().get(`/api/v1/client/leaderboards/${leaderboard}/players/${playerId}${query}`).set(secretKey(game));

const settings = async (game: TestGame, leaderboard: string) => {
  const res = await api().get('/api/v1/server/leaderboards?limit=100').set(secretKey(game)).expect(200);
  return res.body.leaderboards.find((board: { leaderboard_id: string }) => board.leaderboard_id === leaderboard);
};

const reset = (game: TestGame, leaderboard: string) =>
  api().post(`/api/v1/server/leaderboards/${leaderboard}/reset`).set(secretKey(game)).expect(200);

/** A chain of `depth` nested objects (the metadata object itself is level 1). */
function nested(depth: number): Body {
  let value: Body = { leaf: 1 };
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
}

/** Metadata whose compact JSON is exactly `bytes` long, made of `char` (1 or 2 UTF-8 bytes). */
function sized(bytes: number, char = 'x'): Body {
  const frame = Buffer.byteLength('{"s":""}');
  const width = Buffer.byteLength(char);
  const text = char.repeat(Math.floor((bytes - frame) / width)) + 'x'.repeat((bytes - frame) % width);
  const value = { s: text };
  expect(Buffer.byteLength(JSON.stringify(value))).to.equal(bytes);
  return value;
}

/** Every Idempotency-Key record, from every master (on Redis Cluster a node lists only its own keys). */
async function allIdempotencyKeys(): Promise<string[]> {
  const { redis, prefix } = testStores();
  const found: string[] = [];
  for (const node of redis instanceof Cluster ? redis.nodes('master') : [redis]) {
    found.push(...(await node.keys(`${prefix}:idem:*`)), ...(await node.keys(`${prefix}:lb:*:idem:*`)));
  }
  return found.sort();
}

/** What a player's entry holds on a board, straight from Redis: score and metadata. */
async function entryOf(game: TestGame, leaderboard: string, playerId: string) {
  const board = await internalBoard(game, leaderboard);
  const { redis, keys } = testStores();
  return { score: await redis.zscore(keys(board).scores, playerId), metadata: await redis.hget(keys(board).metadata, playerId) };
}

/** Metadata PostgreSQL holds per player: of the live season's scores, or of an ended season's archive. */
async function persistedMetadata(board: { internalId: number }, archivedSeason?: number) {
  const { rows } = await testStores().pool.query<{ player_id: string; metadata: object | null }>(
    archivedSeason === undefined
      ? 'SELECT player_id, metadata FROM scores WHERE leaderboard_internal_id = $1'
      : 'SELECT player_id, metadata FROM season_entries WHERE leaderboard_internal_id = $1 AND season = $2',
    archivedSeason === undefined ? [board.internalId] : [board.internalId, archivedSeason],
  );
  return new Map(rows.map((row) => [row.player_id, row.metadata]));
}

describe('score rules: latest and sum boards', () => {
  let game: TestGame;
  let bot: { 'Api-Key': string };
  before(async () => {
    game = await createGame();
    bot = { 'Api-Key': (await createThirdPartyKey(game)).apiKey };
  });
  const clanRecord = (leaderboard: string, clan: string) =>
    api().get(`/api/v1/third_party/leaderboards/${leaderboard}/clans/${clan}`).set(bot).expect(200);

  it('when reports on a latest board go up and down, then best_score follows each, improved is false for the same value, and rank and total follow', async () => {
    const leaderboard = await createLeaderboard(game, { update_strategy: 'latest' });
    const [a, b] = await signupMany(game, 2);
    expect((await report(game, a!, leaderboard, { score: 50 }).expect(200)).body).to.include({
      best_score: 50,
      improved: true,
      rank: 1,
      total: 1,
    });
    expect((await report(game, b!, leaderboard, { score: 40 }).expect(200)).body).to.include({ rank: 2, total: 2 });
    const down = await report(game, a!, leaderboard, { score: 30 }).expect(200);
    expect(down.body).to.include({ submitted_score: 30, best_score: 30, improved: true, rank: 2, total: 2 });
    const same = await report(game, a!, leaderboard, { score: 30 }).expect(200);
    expect(same.body).to.include({ best_score: 30, improved: false, rank: 2, total: 2 });
    expect((await report(game, a!, leaderboard, { score: 45 }).expect(200)).body).to.include({ best_score: 45, improved: true, rank: 1 });
    expect((await record(game, leaderboard, b!.playerId).expect(200)).body).to.include({ score: 40, rank: 2, total: 2 });
  });

  it("when a member's latest score falls on a clan board, then the clan total falls with it at the next read", async () => {
    const leaderboard = await createLeaderboard(game, { type: 'clan', update_strategy: 'latest' });
    const clan = await createClan(game);
    const [a, b] = await signupMany(game, 2);
    await joinClan(game, clan, [a!, b!]);
    await report(game, a!, leaderboard, { score: 50 }).expect(200);
    await report(game, b!, leaderboard, { score: 40 }).expect(200);
    expect((await clanRecord(leaderboard, clan)).body).to.include({ score: 90, rank: 1 });
    await report(game, a!, leaderboard, { score: 10 }).expect(200);
    expect((await clanRecord(leaderboard, clan)).body).to.include({ score: 50, rank: 1 });
  });

  it('when a sum board takes increments (negative ones too), then each adds, bounds apply to the submitted value and not the sum, and clan totals add up', async () => {
    const leaderboard = await createLeaderboard(game, { type: 'clan', update_strategy: 'sum', min_score: -10, max_score: 100 });
    const clan = await createClan(game);
    const [a, b] = await signupMany(game, 2);
    await joinClan(game, clan, [a!, b!]);
    expect((await report(game, a!, leaderboard, { score: 60 }).expect(200)).body).to.include({ best_score: 60, improved: true });
    expect((await report(game, a!, leaderboard, { score: 60 }).expect(200)).body).to.include({ best_score: 120, improved: true, rank: 1 });
    expect((await report(game, a!, leaderboard, { score: -10 }).expect(200)).body).to.include({ best_score: 110, improved: true });
    expect((await report(game, a!, leaderboard, { score: 0 }).expect(200)).body).to.include({ best_score: 110, improved: false });
    for (const score of [-11, 101]) {
      const refused = await report(game, a!, leaderboard, { score }).expect(400);
      expect(refused.body.error.code).to.equal('validation_failed');
    }
    await batch(game, { player_id: b!.playerId, scores: [7, 8], leaderboard_ids: [leaderboard, leaderboard] }).expect(200);
    expect((await record(game, leaderboard, a!.playerId).expect(200)).body).to.include({ score: 110, rank: 1, total: 2 });
    expect((await record(game, leaderboard, b!.playerId).expect(200)).body).to.include({ score: 15, rank: 2 });
    expect((await clanRecord(leaderboard, clan)).body).to.include({ score: 125 });
  });

  it('when a sum would overflow, then 400 validation_failed names the score and the sum and clan total stay', async () => {
    const leaderboard = await createLeaderboard(game, { type: 'clan', update_strategy: 'sum' });
    const clan = await createClan(game);
    const player = await signup(game);
    await joinClan(game, clan, [player]);
    await report(game, player, leaderboard, { score: 1.5e308, metadata: { run: 1 } }).expect(200);
    const client = await report(game, player, leaderboard, { score: 1.5e308, metadata: { run: 2 } }).expect(400);
    expect(client.body.error.code).to.equal('validation_failed');
    expect(client.body.error.details[0].field).to.equal('score');
    const server = await batch(game, { player_id: player.playerId, scores: [1.5e308], leaderboard_ids: [leaderboard] }).expect(400);
    expect(server.body.error.details[0].field).to.equal('scores[0]');
    expect((await record(game, leaderboard, player.playerId).expect(200)).body).to.include({ score: 1.5e308 });
    expect((await record(game, leaderboard, player.playerId).expect(200)).body.metadata).to.deep.equal({ run: 1 });
    expect((await clanRecord(leaderboard, clan)).body).to.include({ score: 1.5e308 });
  });

  it('when one pair of a server batch would overflow its sum, then 400 and no pair of the batch is applied', async () => {
    const overflowing = await createLeaderboard(game, { update_strategy: 'sum' });
    const other = await createLeaderboard(game, { update_strategy: 'sum' });
    const player = await signup(game);
    await batch(game, { player_id: player.playerId, scores: [1.5e308, 1], leaderboard_ids: [overflowing, other] }).expect(200);
    const res = await batch(game, { player_id: player.playerId, scores: [5, 1.5e308], leaderboard_ids: [other, overflowing] }).expect(400);
    expect(res.body.error.code).to.equal('validation_failed');
    // All or nothing (README, "Guarantees"): the valid pair must not have been added.
    expect((await record(game, other, player.playerId).expect(200)).body.score).to.equal(1);
    expect((await record(game, overflowing, player.playerId).expect(200)).body.score).to.equal(1.5e308);
  });

  it('when a sum board is reset, then the new season sums from zero', async () => {
    const leaderboard = await createLeaderboard(game, { update_strategy: 'sum' });
    const player = await signup(game);
    await report(game, player, leaderboard, { score: 40 }).expect(200);
    await report(game, player, leaderboard, { score: 2 }).expect(200);
    await reset(game, leaderboard);
    const res = await report(game, player, leaderboard, { score: 7 }).expect(200);
    expect(res.body).to.include({ best_score: 7, improved: true, season: 2, rank: 1, total: 1 });
    expect((await record(game, leaderboard, player.playerId, '?season=1').expect(200)).body.score).to.equal(42);
  });

  it('when update_strategy is changed on a board with scores (live or only in an ended season), then 409 and the board keeps its rule', async () => {
    const live = await createLeaderboard(game);
    const ended = await createLeaderboard(game);
    const player = await signup(game);
    await report(game, player, live, { score: 50 }).expect(200);
    await report(game, player, ended, { score: 50 }).expect(200);
    await reset(game, ended);
    for (const leaderboard of [live, ended]) {
      const res = await api()
        .put(`/api/v1/server/leaderboards/${leaderboard}`)
        .set(secretKey(game))
        .send({ update_strategy: 'sum' })
        .expect(409);
      expect(res.body.error.code).to.equal('conflict');
      expect((await settings(game, leaderboard)).update_strategy).to.equal('best');
    }
    expect((await report(game, player, live, { score: 20 }).expect(200)).body).to.include({ best_score: 50, improved: false });
  });

  it('when update_strategy is changed on an empty board or a board is created with sum, then it shows the rule and takes reports at once', async () => {
    const changed = await createLeaderboard(game);
    const res = await api()
      .put(`/api/v1/server/leaderboards/${changed}`)
      .set(secretKey(game))
      .send({ update_strategy: 'latest' })
      .expect(200);
    expect(res.body.update_strategy).to.equal('latest');
    expect((await settings(game, changed)).update_strategy).to.equal('latest');
    const created = await createLeaderboard(game, { update_strategy: 'sum' });
    expect((await settings(game, created)).update_strategy).to.equal('sum');
    const player = await signup(game);
    await report(game, player, changed, { score: 10 }).expect(200);
    expect((await report(game, player, changed, { score: 5 }).expect(200)).body.best_score).to.equal(5);
    await report(game, player, created, { score: 10 }).expect(200);
    expect((await report(game, player, created, { score: 5 }).expect(200)).body.best_score).to.equal(15);
  });
});

describe('score rules: metadata', () => {
  let game: TestGame;
  let bot: { 'Api-Key': string };
  before(async () => {
    game = await createGame();
    bot = { 'Api-Key': (await createThirdPartyKey(game)).apiKey };
  });

  /** The metadata every read shows for the player (endpoints 4, 7, 8, 10, the client list and around_me). */
  async function metadataEverywhere(leaderboard: string, player: TestPlayer, alias: string, clan: string) {
    const client = (path: string) =>
      api().get(path).set('Publishable-Key', game.publishableKey).set('Anonymous-Authorization', player.token).expect(200);
    const own = (entries: { player_id: string; metadata: unknown }[]) =>
      entries.find((entry) => entry.player_id === player.playerId)?.metadata;
    const base = `/api/v1/third_party/leaderboards/${leaderboard}`;
    return {
      record: (await record(game, leaderboard, player.playerId).expect(200)).body.metadata,
      page: own((await api().get(`${base}?limit=100`).set(bot).expect(200)).body.entries),
      alias: (await api().get(`${base}/player/${alias}?alias_type=steam`).set(bot).expect(200)).body.metadata,
      members: own((await api().get(`${base}/clans/${clan}/members`).set(bot).expect(200)).body.entries),
      list: own((await client(`/api/v1/client/leaderboards/${leaderboard}?limit=100`)).body.entries),
      aroundMe: own((await client(`/api/v1/client/leaderboards/${leaderboard}/around_me`)).body.entries),
    };
  }
  const everywhere = (value: unknown) => ({ record: value, page: value, alias: value, members: value, list: value, aroundMe: value });

  async function clanPlayer() {
    const clan = await createClan(game);
    const player = await signup(game);
    const alias = uniqueId('steam');
    await api()
      .patch(`/api/v1/server/players/${player.playerId}`)
      .set(secretKey(game))
      .send({ clan_id: clan, aliases: { steam: alias } })
      .expect(200);
    return { clan, player, alias };
  }

  it('when a best board gets a worse report with other metadata, then the old stays; an improvement without metadata gives null; every read shows it at once', async () => {
    const leaderboard = await createLeaderboard(game, { type: 'clan' });
    const { clan, player, alias } = await clanPlayer();
    await report(game, player, leaderboard, { score: 50, metadata: { car: 'red' } }).expect(200);
    expect(await metadataEverywhere(leaderboard, player, alias, clan)).to.deep.equal(everywhere({ car: 'red' }));
    await report(game, player, leaderboard, { score: 40, metadata: { car: 'blue' } }).expect(200);
    expect(await metadataEverywhere(leaderboard, player, alias, clan)).to.deep.equal(everywhere({ car: 'red' }));
    await report(game, player, leaderboard, { score: 60 }).expect(200);
    expect(await metadataEverywhere(leaderboard, player, alias, clan)).to.deep.equal(everywhere(null));
  });

  it("when latest and sum boards get reports, then each report's metadata is kept (none: null), also when the score does not change", async () => {
    for (const strategy of ['latest', 'sum']) {
      const leaderboard = await createLeaderboard(game, { type: 'clan', update_strategy: strategy });
      const { clan, player, alias } = await clanPlayer();
      await report(game, player, leaderboard, { score: 50, metadata: { lap: 1 } }).expect(200);
      await report(game, player, leaderboard, { score: strategy === 'sum' ? 0 : 50, metadata: { lap: 2 } }).expect(200);
      expect(await metadataEverywhere(leaderboard, player, alias, clan), strategy).to.deep.equal(everywhere({ lap: 2 }));
      await batch(game, { player_id: player.playerId, scores: [1], leaderboard_ids: [leaderboard], metadata: [{ lap: 3 }] }).expect(200);
      expect(await metadataEverywhere(leaderboard, player, alias, clan), strategy).to.deep.equal(everywhere({ lap: 3 }));
      await report(game, player, leaderboard, { score: 2 }).expect(200);
      expect(await metadataEverywhere(leaderboard, player, alias, clan), strategy).to.deep.equal(everywhere(null));
    }
  });

  it('when metadata is exactly 1,024 bytes (multibyte characters too) or nests 8 levels, then it is kept as sent', async () => {
    const leaderboard = await createLeaderboard(game, { update_strategy: 'latest' });
    const player = await signup(game);
    for (const metadata of [sized(1024), sized(1024, 'é'), sized(1024, '€'), nested(8), { a: [[[[[[{ b: 1 }]]]]]] }]) {
      await report(game, player, leaderboard, { score: 1, metadata }).expect(200);
      expect((await record(game, leaderboard, player.playerId).expect(200)).body.metadata).to.deep.equal(metadata);
    }
    // 1,024 bytes once compact, though the text sent spells each é as a 6-byte escape.
    const escaped = `{"score":2,"metadata":{"s":"${'\\u00e9'.repeat(508)}"}}`;
    await report(game, player, leaderboard, escaped).expect(200);
    expect((await record(game, leaderboard, player.playerId).expect(200)).body.metadata).to.deep.equal(sized(1024, 'é'));
  });

  describe('score rules: bad input', () => {
    let leaderboard: string;
    let other: string;
    let player: TestPlayer;
    before(async () => {
      leaderboard = await createLeaderboard(game, { update_strategy: 'sum' });
      other = await createLeaderboard(game, { update_strategy: 'latest' });
      player = await signup(game);
      await report(game, player, leaderboard, { score: 10, metadata: { kept: true } }).expect(200);
      await report(game, player, other, { score: 20, metadata: { kept: 'too' } }).expect(200);
    });

    async function state() {
      return {
        sum: await entryOf(game, leaderboard, player.playerId),
        latest: await entryOf(game, other, player.playerId),
        retries: await allIdempotencyKeys(),
      };
    }

    async function expectRefused(res: { status: number; body: { error: { code: string } } }, what: string) {
      expect(res.status, what).to.equal(400);
      expect(res.body.error.code, what).to.equal('validation_failed');
    }

    it('when client metadata is too large, not an object or too deep, then 400 validation_failed and nothing changes', async () => {
      const before = await state();
      const bad: [string, unknown][] = [
        ['1,025 bytes', sized(1025)],
        ['1,025 bytes of 2-byte characters', sized(1025, 'é')],
        ['an array', [1, 2]],
        ['a string', 'car'],
        ['a number', 5],
        ['9 levels', nested(9)],
        ['9 levels through arrays', { a: [[[[[[[{ b: 1 }]]]]]]] }],
      ];
      for (const [what, metadata] of bad) {
        await expectRefused(await report(game, player, leaderboard, { score: 1, metadata }, uniqueId('key')), what);
      }
      expect(await state()).to.deep.equal(before);
    });

    it('when client or server metadata holds a NUL or an unpaired surrogate in any key or value, nested too, then 400 validation_failed and nothing changes', async () => {
      const before = await state();
      const bad: [string, object][] = [
        ['a NUL in a value', { note: 'a\u0000b' }],
        ['a NUL in a key', { 'ke\u0000y': 1 }],
        ['a NUL in an array, nested', { a: [{ b: ['\u0000'] }] }],
        ['half an emoji in a value', { note: 'Ada \ud83d' }],
        ['half an emoji in a key', { '\udc00': true }],
        ['half an emoji in a nested key', { a: { b: { ['x\ud83d']: 1 } } }],
        ['half an emoji in an array', { list: ['ok', 'x\ud83d'] }],
      ];
      for (const [what, metadata] of bad) {
        await expectRefused(await report(game, player, leaderboard, { score: 1, metadata }, uniqueId('key')), `client: ${what}`);
        const pairs = { player_id: player.playerId, scores: [1, 2], leaderboard_ids: [leaderboard, other], metadata: [null, metadata] };
        await expectRefused(await batch(game, pairs, uniqueId('key')), `server: ${what}`);
      }
      expect(await state()).to.deep.equal(before);
    });

    it('when a depth bomb is sent as raw JSON (as deep as the body limit allows), then 400 quickly, never a 500', async () => {
      const before = await state();
      const bombs = [
        [
          'objects, client',
          () => report(game, player, leaderboard, `{"score":1,"metadata":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`),
        ],
        [
          'arrays, client',
          () => report(game, player, leaderboard, `{"score":1,"metadata":{"a":${'['.repeat(30_000)}${']'.repeat(30_000)}}}`),
        ],
        ['arrays as the score', () => report(game, player, leaderboard, `{"score":${'['.repeat(30_000)}${']'.repeat(30_000)}}`)],
        [
          'arrays, server batch',
          () =>
            batch(
              game,
              `{"player_id":"${player.playerId}","scores":[1],"leaderboard_ids":["${leaderboard}"],"metadata":[${'['.repeat(60_000)}${']'.repeat(60_000)}]}`,
            ),
        ],
      ] as const;
      for (const [what, send] of bombs) {
        const started = Date.now();
        await expectRefused(await send(), what);
        expect(Date.now() - started, what).to.be.below(2000);
      }
      // 100,000 levels take 200,000 bytes at least: past the body limit, so refused as too large.
      const huge = await report(game, player, leaderboard, `{"score":1,"metadata":{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`);
      expect(huge.status).to.equal(413);
      expect(await state()).to.deep.equal(before);
    });

    it('when the Idempotency-Key is 129 characters or holds a control or non-ASCII character, then 400 validation_failed and nothing changes', async () => {
      const before = await state();
      await report(game, player, leaderboard, { score: 1 }, 'k'.repeat(128)).expect(200);
      const afterGood = await state();
      expect(afterGood.sum.score).to.equal('11');
      for (const key of ['k'.repeat(129), 'run\t42', 'run\u00e942']) {
        await expectRefused(await report(game, player, leaderboard, { score: 1 }, key), JSON.stringify(key));
        await expectRefused(
          await batch(game, { player_id: player.playerId, scores: [1], leaderboard_ids: [leaderboard] }, key),
          JSON.stringify(key),
        );
      }
      expect(await state()).to.deep.equal(afterGood);
      expect(before.sum.score).to.equal('10');
    });

    it('when a server batch has metadata of another length or one bad metadata element, then 400 and no pair is applied', async () => {
      const before = await state();
      const pairs = { player_id: player.playerId, scores: [1, 2], leaderboard_ids: [leaderboard, other] };
      const bad: [string, unknown[]][] = [
        ['shorter', [{ a: 1 }]],
        ['longer', [{ a: 1 }, null, null]],
        ['an array element', [{ a: 1 }, [1]]],
        ['a string element', ['x', { a: 1 }]],
        ['a too large element', [{ a: 1 }, sized(1025)]],
        ['a too deep element', [nested(9), { a: 1 }]],
      ];
      for (const [what, metadata] of bad) {
        await expectRefused(await batch(game, { ...pairs, metadata }, uniqueId('key')), what);
      }
      expect(await state()).to.deep.equal(before);
    });
  });

  it('when a server batch carries 100 pairs with ~1,000 bytes of metadata each, then it is applied; a 130 KiB body is 413 and applies nothing', async () => {
    const leaderboard = await createLeaderboard(game, { update_strategy: 'sum' });
    const player = await signup(game);
    const metadata = Array.from({ length: 100 }, (_, i) => sized(1000 + (i % 24)));
    const body = { player_id: player.playerId, scores: Array(100).fill(1), leaderboard_ids: Array(100).fill(leaderboard), metadata };
    const size = Buffer.byteLength(JSON.stringify(body));
    expect(size).to.be.within(100 * 1024, 128 * 1024);
    const res = await batch(game, body).expect(200);
    expect(res.body.results).to.have.length(100);
    const held = (await record(game, leaderboard, player.playerId).expect(200)).body;
    expect(held.score).to.equal(100);
    expect(metadata).to.deep.include(held.metadata);

    const tooLarge = { ...body, scores: Array(100).fill(5), padding: 'x'.repeat(130 * 1024 - size) };
    expect(Buffer.byteLength(JSON.stringify(tooLarge))).to.be.above(128 * 1024);
    const refused = await batch(game, tooLarge).expect(413);
    expect(refused.body.error.code).to.equal('payload_too_large');
    expect((await record(game, leaderboard, player.playerId).expect(200)).body.score).to.equal(100);
  });
  it("when a server batch body is past its limit, then the 413 message names that endpoint's limit (128 KiB), not 64 KiB", async () => {
    const player = await signup(game);
    const leaderboard = await createLeaderboard(game);
    const refused = await batch(game, {
      player_id: player.playerId,
      scores: [1],
      leaderboard_ids: [leaderboard],
      padding: 'x'.repeat(130 * 1024),
    }).expect(413);
    // A game that had 100 KiB batches accepted must not be told the limit is 64 KiB.
    expect(refused.body.error.message).to.include('128 KiB');
  });
});

describe('score rules: persistence, archives and rebuild', function () {
  this.timeout(60_000);
  let game: TestGame;
  let worker: ServiceProcess | undefined;
  before(async () => {
    game = await createGame();
    worker = await startWorker();
  });
  after(async () => {
    await worker?.stop();
  });

  it('when latest and sum values go up and down, then PostgreSQL converges to exactly the live scores, clan totals and metadata', async () => {
    const clans = [await createClan(game), await createClan(game)];
    const players = await signupMany(game, 6);
    await joinClan(game, clans[0]!, players.slice(0, 3));
    await joinClan(game, clans[1]!, players.slice(3, 5));
    for (const strategy of ['latest', 'sum']) {
      const leaderboard = await createLeaderboard(game, { type: 'clan', update_strategy: strategy });
      const board = await internalBoard(game, leaderboard);
      for (const [i, player] of players.entries()) {
        await report(game, player, leaderboard, { score: 100 + i, metadata: { step: 1 } }).expect(200);
      }
      await waitForPersistence(board);
      // Down again after PostgreSQL had the higher value: it must follow down, not keep the higher.
      for (const [i, player] of players.entries()) {
        await report(game, player, leaderboard, { score: -(i * 7) - 3, metadata: i % 2 ? { step: 2 } : undefined }).expect(200);
      }
      await report(game, players[0]!, leaderboard, { score: 1.25, metadata: { step: 3 } }).expect(200);
      await waitForPersistence(board);
      expect(await persistedScores(board), strategy).to.deep.equal(await liveScores(board));
      expect(await persistedClanTotals(board), strategy).to.deep.equal(await liveClanTotals(board));
      const metadata = await testStores().redis.hgetall(testStores().keys(board).metadata);
      const expected = new Map(
        players.map((player) => [player.playerId, metadata[player.playerId] ? JSON.parse(metadata[player.playerId]!) : null]),
      );
      expect(await persistedMetadata(board), strategy).to.deep.equal(expected);
      expect(expected.get(players[0]!.playerId)).to.deep.equal({ step: 3 });
    }
  });

  it('when a board with metadata is reset and archived, then ?season=1 reads show the archived metadata', async () => {
    const leaderboard = await createLeaderboard(game, { type: 'clan', update_strategy: 'latest' });
    const board = await internalBoard(game, leaderboard);
    const clan = await createClan(game);
    const player = await signup(game);
    await joinClan(game, clan, [player]);
    const bot = { 'Api-Key': (await createThirdPartyKey(game)).apiKey };
    await report(game, player, leaderboard, { score: 30, metadata: { season: 'one' } }).expect(200);
    await reset(game, leaderboard);
    await report(game, player, leaderboard, { score: 5, metadata: { season: 'two' } }).expect(200);
    await waitForPersistence(board);
    expect(await persistedMetadata(board, 1)).to.deep.equal(new Map([[player.playerId, { season: 'one' }]]));
    expect(await persistedMetadata(board)).to.deep.equal(new Map([[player.playerId, { season: 'two' }]]));
    const base = `/api/v1/third_party/leaderboards/${leaderboard}`;
    expect((await record(game, leaderboard, player.playerId, '?season=1').expect(200)).body.metadata).to.deep.equal({ season: 'one' });
    expect((await api().get(`${base}?season=1`).set(bot).expect(200)).body.entries[0].metadata).to.deep.equal({ season: 'one' });
    expect((await api().get(`${base}/player/${player.playerId}?season=1`).set(bot).expect(200)).body.metadata).to.deep.equal({
      season: 'one',
    });
    expect((await api().get(`${base}/clans/${clan}/members?season=1`).set(bot).expect(200)).body.entries[0].metadata).to.deep.equal({
      season: 'one',
    });
    expect((await record(game, leaderboard, player.playerId).expect(200)).body.metadata).to.deep.equal({ season: 'two' });
  });

  it('when a latest, a sum and a best board lose their Redis keys, then the first touch of each rebuilds it from PostgreSQL, values and metadata included, and a retried sum is added once', async () => {
    const ids = {
      latest: await createLeaderboard(game, { update_strategy: 'latest' }),
      sum: await createLeaderboard(game, { update_strategy: 'sum' }),
      best: await createLeaderboard(game),
    };
    const boards = {
      latest: await internalBoard(game, ids.latest),
      sum: await internalBoard(game, ids.sum),
      best: await internalBoard(game, ids.best),
    };
    const [a, b] = await signupMany(game, 2);
    for (const id of Object.values(ids)) {
      await report(game, a!, id, { score: 40, metadata: { from: 'a1' } }).expect(200);
      await report(game, a!, id, { score: 15, metadata: { from: 'a2' } }).expect(200);
      await report(game, b!, id, { score: 20, metadata: { from: 'b' } }).expect(200);
    }
    for (const board of Object.values(boards)) await waitForPersistence(board);
    const snapshot = async () => {
      const result: Record<string, unknown> = {};
      for (const [rule, id] of Object.entries(ids)) {
        for (const player of [a!, b!]) {
          const { body } = await record(game, id, player.playerId).expect(200);
          result[`${rule} ${player === a ? 'a' : 'b'}`] = {
            score: body.score,
            rank: body.rank,
            total: body.total,
            metadata: body.metadata,
          };
        }
      }
      return result;
    };
    const before = await snapshot();
    expect(before['sum a']).to.deep.include({ score: 55, metadata: { from: 'a2' } });
    expect(before['latest a']).to.deep.include({ score: 15, metadata: { from: 'a2' } });

    // Stopped, so its sweep cannot rebuild first; a lost dataset for these boards only.
    await worker!.stop();
    worker = undefined;
    const { redis, allKeys } = testStores();
    for (const board of Object.values(boards)) await redis.unlink(...allKeys(board));

    // The first touch of each board finds it without live state and rebuilds it before answering.
    const retried = uniqueId('key');
    const first = await report(game, a!, ids.sum, { score: 5, metadata: { from: 'retry' } }, retried).expect(200);
    expect(first.body).to.include({ best_score: 60, improved: true, rank: 1, total: 2 });
    const again = await report(game, a!, ids.sum, { score: 5, metadata: { from: 'retry' } }, retried).expect(200);
    expect(again.body).to.deep.equal(first.body);
    expect((await record(game, ids.latest, b!.playerId).expect(200)).body).to.include({ score: 20, rank: 1, total: 2 });
    await report(game, b!, ids.best, { score: 30, metadata: { from: 'b2' } }).expect(200);
    expect(await snapshot()).to.deep.equal({
      ...before,
      'sum a': { score: 60, rank: 1, total: 2, metadata: { from: 'retry' } },
      'best b': { score: 30, rank: 2, total: 2, metadata: { from: 'b2' } },
    });
    expect((await record(game, ids.sum, a!.playerId).expect(200)).body).to.include({ score: 60 });
    expect((await report(game, b!, ids.sum, { score: 1 }).expect(200)).body.best_score).to.equal(21);
    expect((await report(game, a!, ids.latest, { score: 3 }).expect(200)).body.best_score).to.equal(3);

    worker = await startWorker();
    await waitForPersistence(boards.sum);
    expect(await persistedScores(boards.sum)).to.deep.equal(
      new Map([
        [a!.playerId, 60],
        [b!.playerId, 21],
      ]),
    );
  });
});
