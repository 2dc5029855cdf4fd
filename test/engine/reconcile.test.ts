import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import { projectRoot } from '../../engine/paths.js';
import { lockKey } from '../../engine/live/keys.js';
import { api, testEngine, testStores } from '../helpers/context.js';
import { createGame, createLeaderboard, internalBoard, reportScore, signupMany, uniqueId } from '../helpers/fixtures.js';
import { liveClanTotals } from '../helpers/persistence.js';

const runReconcile = () =>
  new Promise<number | null>((resolve) =>
    spawn(process.execPath, [path.join(projectRoot, 'dist', 'scripts', 'reconcile.js')], { stdio: 'ignore', env: process.env }).once(
      'exit',
      resolve,
    ),
  );

describe('clan total reconciliation', () => {
  it('when clan totals and memberships drifted in Redis, then npm run reconcile recounts them from the members’ best scores', async function () {
    this.timeout(30_000);
    const game = await createGame();
    const leaderboard = await createLeaderboard(game, { type: 'clan' });
    const [alpha, beta] = [uniqueId('alpha'), uniqueId('beta')];
    for (const clan of [alpha, beta])
      await api().put(`/api/v1/server/clans/${clan}`).set('Secret-Key', game.secretKey).send({}).expect(201);
    const [stray, ...players] = await signupMany(game, 7);
    // Scores whose running sum drifts in binary floating point.
    const scores = [0.1, 0.2, 0.3, 0.7, 1.1, 2.2];
    for (const [i, player] of players.entries()) {
      await api()
        .patch(`/api/v1/server/players/${player.playerId}`)
        .set('Secret-Key', game.secretKey)
        .send({ clan_id: i < 3 ? alpha : beta })
        .expect(200);
      await reportScore(game, player, leaderboard, scores[i]).expect(200);
    }
    const board = await internalBoard(game, leaderboard);
    const { redis, keys: keysOf, memberKey } = testStores();
    const keys = keysOf(board);
    // The recount adds members' scores in player-id (byte) order, so its result is reproducible.
    const recount = (members: number[]) =>
      members
        .map((i) => [players[i]!.playerId, scores[i]!] as const)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .reduce((sum, [, score]) => sum + score, 0);

    // Drift: a wrong total, a member Redis believes is in the other clan, a clan that no longer exists,
    // and a member of no clan.
    await redis.zadd(keys.clans, '999', alpha);
    const [alphaNumber] = (await redis.hget(keys.clanState, alpha))!.split(':');
    await redis.hset(memberKey(board, players[5]!.playerId), players[5]!.playerId, alphaNumber!);
    await redis.zadd(keys.clans, '5', 'ghost-clan');
    // A membership Redis holds for a player in no clan at all.
    await redis.hset(memberKey(board, stray!.playerId), stray!.playerId, alphaNumber!);

    expect(await runReconcile()).to.equal(0);
    const totals = await liveClanTotals(board);
    expect(Object.fromEntries(totals)).to.deep.equal({ [alpha]: recount([0, 1, 2]), [beta]: recount([3, 4, 5]) });
    // Memberships hold the clan's number on the board; clanIds names it.
    const memberNumber = await redis.hget(memberKey(board, players[5]!.playerId), players[5]!.playerId);
    expect((await redis.hgetall(keys.clanIds))[memberNumber!]).to.equal(beta);
    expect(await redis.hget(memberKey(board, stray!.playerId), stray!.playerId)).to.equal(null);
  });

  it('when workers start one after another within the interval, then only the first recounts the clan totals', async function () {
    this.timeout(120_000); // two walks over every clan board the suite has made
    const game = await createGame();
    const leaderboard = await createLeaderboard(game, { type: 'clan' });
    const clan = uniqueId('clan');
    await api().put(`/api/v1/server/clans/${clan}`).set('Secret-Key', game.secretKey).send({}).expect(201);
    const [player] = await signupMany(game, 1);
    await api().patch(`/api/v1/server/players/${player!.playerId}`).set('Secret-Key', game.secretKey).send({ clan_id: clan }).expect(200);
    await reportScore(game, player!, leaderboard, 40).expect(200);
    const board = await internalBoard(game, leaderboard);
    const { redis, prefix, keys } = testStores();
    const drift = () => redis.zadd(keys(board).clans, '999', clan);
    const total = async () => Number(await redis.zscore(keys(board).clans, clan));
    const { maintenance } = testEngine();
    const interval = 600_000;
    const round = lockKey(prefix, 'reconcile-round');
    await redis.del(round); // no worker has recounted yet

    await drift();
    expect(await maintenance.reconcileClansOncePer(interval)).to.be.at.least(1);
    expect(await total()).to.equal(40);
    // The round stays taken for the interval, however long the recount took.
    expect(await redis.pttl(round)).to.be.above(interval - 120_000);
    // A second worker starting within the interval leaves the recount to the next round.
    await drift();
    expect(await maintenance.reconcileClansOncePer(interval)).to.equal(undefined);
    expect(await total()).to.equal(999);
    // Once the interval has passed (the claim expires), whichever worker looks first recounts.
    expect(await redis.pexpire(round, 1)).to.equal(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await maintenance.reconcileClansOncePer(interval)).to.be.at.least(1);
    expect(await total()).to.equal(40);
  });
});
