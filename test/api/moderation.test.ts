import { expect } from 'chai';
import { api, testStores } from '../helpers/context.js';
import {
  createClan,
  createGame,
  createLeaderboard,
  createThirdPartyKey,
  internalBoard,
  joinClan,
  reportScore,
  reportScores,
  secretKey,
  signup,
  signupMany,
  uniqueId,
  type TestGame,
} from '../helpers/fixtures.js';
import { inParallel, liveClanTotals, persistedScores, waitForPersistence } from '../helpers/persistence.js';
import { runScript, startWorker, type ServiceProcess } from '../helpers/processes.js';

/**
 * Moderation of the live season: removing one score, banning and unbanning a player. What every
 * read shows (ranks and totals closed up, clan totals without the banned player), what reports of a
 * banned player get, and what PostgreSQL ends up holding.
 */

const ban = (game: TestGame, playerId: string, reason?: string) =>
  api()
    .post(`/api/v1/server/players/${playerId}/ban`)
    .set(secretKey(game))
    .send(reason === undefined ? {} : { reason });
const unban = (game: TestGame, playerId: string) => api().delete(`/api/v1/server/players/${playerId}/ban`).set(secretKey(game));
const removeScore = (game: TestGame, leaderboard: string, playerId: string) =>
  api().delete(`/api/v1/server/leaderboards/${leaderboard}/scores/${playerId}`).set(secretKey(game));
const record = (game: TestGame, leaderboard: string, playerId: string) =>
  api().get(`/api/v1/client/leaderboards/${leaderboard}/players/${playerId}`).set(secretKey(game));

type Row = { id: string; score: number; rank: number };

/** The whole leaderboard as the third-party list shows it: id, score, rank, in order. */
async function board(apiKey: string, leaderboard: string): Promise<{ total: number; rows: Row[] }> {
  const { body } = await api().get(`/api/v1/third_party/leaderboards/${leaderboard}?limit=1000`).set('Api-Key', apiKey).expect(200);
  return {
    total: body.total,
    rows: body.entries.map((e: { player_id: string; score: number; rank: number }) => ({
      id: e.player_id,
      score: e.score,
      rank: e.rank,
    })),
  };
}

/** The competition ranking of best scores (higher is better), tied entries in any order. */
function reference(best: Map<string, number>): Map<string, { score: number; rank: number }> {
  const scores = [...best.values()];
  return new Map([...best].map(([id, score]) => [id, { score, rank: 1 + scores.filter((s) => s > score).length }]));
}

const asMap = (rows: Row[]) => new Map(rows.map((r) => [r.id, { score: r.score, rank: r.rank }]));

describe('moderation: remove a score, ban and unban a player', function () {
  this.timeout(120_000);
  let game: TestGame;
  let apiKey: string;

  before(async () => {
    game = await createGame();
    apiKey = (await createThirdPartyKey(game)).apiKey;
  });

  describe('removing a score', () => {
    it('when a score is removed, then ranks, the total and the clan total close up at once and the player may report again', async () => {
      const leaderboard = await createLeaderboard(game, { type: 'clan' });
      const clan = await createClan(game);
      const [top, second, third] = await signupMany(game, 3);
      await joinClan(game, clan, [top!, second!]);
      await reportScores(game, leaderboard, [
        [top!, 300],
        [second!, 200],
        [third!, 100],
      ]);

      await removeScore(game, leaderboard, top!.playerId).expect(204);

      expect(await board(apiKey, leaderboard)).to.deep.equal({
        total: 2,
        rows: [
          { id: second!.playerId, score: 200, rank: 1 },
          { id: third!.playerId, score: 100, rank: 2 },
        ],
      });
      expect((await record(game, leaderboard, top!.playerId).expect(404)).body.error.code).to.equal('record_not_found');
      const clanRecord = await api()
        .get(`/api/v1/third_party/leaderboards/${leaderboard}/clans/${clan}`)
        .set('Api-Key', apiKey)
        .expect(200);
      expect(clanRecord.body).to.include({ score: 200 });

      const again = await removeScore(game, leaderboard, top!.playerId).expect(404);
      expect(again.body.error.code).to.equal('record_not_found');

      // A lower score than the removed one counts: the removed score is gone, not kept as a best.
      const reported = await reportScore(game, top!, leaderboard, 50).expect(200);
      expect(reported.body).to.include({ best_score: 50, improved: true, rank: 3 });
      expect((await api().get(`/api/v1/third_party/leaderboards/${leaderboard}/clans/${clan}`).set('Api-Key', apiKey)).body).to.include({
        score: 250,
      });
    });

    it('when the leaderboard or the player is unknown, then 404 with the right code and nothing changes', async () => {
      const leaderboard = await createLeaderboard(game);
      const [player] = await signupMany(game, 1);
      await reportScore(game, player!, leaderboard, 10).expect(200);
      expect((await removeScore(game, uniqueId('nope'), player!.playerId).expect(404)).body.error.code).to.equal('leaderboard_not_found');
      expect((await removeScore(game, leaderboard, 'no-such-player').expect(404)).body.error.code).to.equal('record_not_found');
      const other = await createGame();
      expect((await removeScore(other, leaderboard, player!.playerId).expect(404)).body.error.code).to.equal('leaderboard_not_found');
      expect((await record(game, leaderboard, player!.playerId).expect(200)).body).to.include({ score: 10 });
    });

    describe('with the worker', () => {
      let worker: ServiceProcess | undefined;
      afterEach(async () => {
        await worker?.stop();
        worker = undefined;
      });

      it('when a score is removed while its persistence job is queued, then PostgreSQL does not get it back', async () => {
        const leaderboard = await createLeaderboard(game);
        const internal = await internalBoard(game, leaderboard);
        const [cheater, honest] = await signupMany(game, 2);
        // No worker yet: the jobs of these reports wait in the queue.
        await reportScore(game, cheater!, leaderboard, 1_000_000).expect(200);
        await reportScore(game, honest!, leaderboard, 10).expect(200);
        await removeScore(game, leaderboard, cheater!.playerId).expect(204);

        worker = await startWorker();
        await waitForPersistence(internal);
        expect(await persistedScores(internal)).to.deep.equal(new Map([[honest!.playerId, 10]]));
      });

      it('when a persisted score is removed and a lower one reported, then PostgreSQL ends with the lower one', async () => {
        const leaderboard = await createLeaderboard(game);
        const internal = await internalBoard(game, leaderboard);
        const [player] = await signupMany(game, 1);
        worker = await startWorker();
        await reportScore(game, player!, leaderboard, 900).expect(200);
        await waitForPersistence(internal);
        expect(await persistedScores(internal)).to.deep.equal(new Map([[player!.playerId, 900]]));

        await removeScore(game, leaderboard, player!.playerId).expect(204);
        await waitForPersistence(internal);
        expect(await persistedScores(internal)).to.deep.equal(new Map());

        // GREATEST alone would keep 900; the removal's version lets the lower score replace it.
        await removeScore(game, leaderboard, player!.playerId).expect(404);
        await reportScore(game, player!, leaderboard, 900).expect(200);
        await worker.stop();
        await removeScore(game, leaderboard, player!.playerId).expect(204);
        await reportScore(game, player!, leaderboard, 40).expect(200);
        worker = await startWorker();
        await waitForPersistence(internal);
        expect(await persistedScores(internal)).to.deep.equal(new Map([[player!.playerId, 40]]));
      });
    });
  });

  describe('banning', () => {
    it('when a player is banned, then every read of every leaderboard closes up without them and their reports get 403 player_banned', async () => {
      const individual = await createLeaderboard(game);
      const clanBoard = await createLeaderboard(game, { type: 'clan' });
      const clan = await createClan(game);
      const [cheater, a, b] = await signupMany(game, 3);
      await joinClan(game, clan, [cheater!, a!]);
      for (const leaderboard of [individual, clanBoard]) {
        await reportScores(game, leaderboard, [
          [cheater!, 500],
          [a!, 300],
          [b!, 300],
        ]);
      }

      const banned = await ban(game, cheater!.playerId, 'impossible run').expect(200);
      expect(banned.body).to.include({ player_id: cheater!.playerId, banned: true, ban_reason: 'impossible run' });
      expect(Date.parse(banned.body.banned_at)).to.be.closeTo(Date.now(), 60_000);

      for (const leaderboard of [individual, clanBoard]) {
        const { total, rows } = await board(apiKey, leaderboard);
        expect(total, leaderboard).to.equal(2);
        expect(asMap(rows), leaderboard).to.deep.equal(
          new Map([
            [a!.playerId, { score: 300, rank: 1 }],
            [b!.playerId, { score: 300, rank: 1 }],
          ]),
        );
        expect((await record(game, leaderboard, cheater!.playerId).expect(404)).body.error.code).to.equal('record_not_found');
        const around = await api()
          .get(`/api/v1/client/leaderboards/${leaderboard}/around_me`)
          .set('Publishable-Key', game.publishableKey)
          .set('Anonymous-Authorization', cheater!.token)
          .expect(404);
        expect(around.body.error.code).to.equal('record_not_found');
        const refused = await reportScore(game, cheater!, leaderboard, 1).expect(403);
        expect(refused.body.error.code).to.equal('player_banned');
      }
      const batch = await api()
        .post('/api/v1/server/report_scores')
        .set(secretKey(game))
        .send({ player_id: cheater!.playerId, scores: [1, 2], leaderboard_ids: [individual, clanBoard] })
        .expect(403);
      expect(batch.body.error.code).to.equal('player_banned');

      // The clan keeps only its other member: total, member count and member list.
      const clanRecord = await api().get(`/api/v1/third_party/leaderboards/${clanBoard}/clans/${clan}`).set('Api-Key', apiKey).expect(200);
      expect(clanRecord.body).to.deep.include({ score: 300 });
      expect(clanRecord.body.clan ?? clanRecord.body).to.deep.include({ member_count: 1 });
      const members = await api()
        .get(`/api/v1/third_party/leaderboards/${clanBoard}/clans/${clan}/members`)
        .set('Api-Key', apiKey)
        .expect(200);
      expect(members.body.total).to.equal(1);
      expect(members.body.entries.map((e: { player_id: string }) => e.player_id)).to.deep.equal([a!.playerId]);

      // The web page of the banned player and of the others has no row for them.
      const page = await api()
        .get(`/leaderboards/${individual}?token=${encodeURIComponent(a!.token)}`)
        .expect(200);
      expect(page.text).to.not.include(cheater!.playerId);
    });

    it('when a player is banned and unbanned, then every read is exactly as before, clan totals included', async () => {
      const leaderboards = [await createLeaderboard(game), await createLeaderboard(game, { type: 'clan', sort_order: 'asc' })];
      const clan = await createClan(game);
      const players = await signupMany(game, 6);
      const target = players[2]!;
      await joinClan(game, clan, players.slice(0, 4));
      for (const leaderboard of leaderboards) {
        await reportScores(
          game,
          leaderboard,
          players.map((p, i) => [p, [40, 70, 55, 55, 10, 90][i]!]),
        );
      }
      const snapshot = async () => {
        const reads: unknown[] = [];
        for (const leaderboard of leaderboards) {
          reads.push(await board(apiKey, leaderboard));
          reads.push((await record(game, leaderboard, target.playerId)).body);
          reads.push((await api().get(`/api/v1/third_party/leaderboards/${leaderboard}/clans/${clan}`).set('Api-Key', apiKey)).body);
          reads.push(
            (await api().get(`/api/v1/third_party/leaderboards/${leaderboard}/clans/${clan}/members`).set('Api-Key', apiKey)).body,
          );
        }
        return reads;
      };
      const before = await snapshot();
      await ban(game, target.playerId).expect(200);
      expect(await snapshot()).to.not.deep.equal(before);
      // Ban and unban are idempotent.
      await ban(game, target.playerId, 'second reason').expect(200);
      const unbanned = await unban(game, target.playerId).expect(200);
      expect(unbanned.body).to.include({ banned: false, banned_at: null, ban_reason: null });
      await unban(game, target.playerId).expect(200);
      expect(await snapshot()).to.deep.equal(before);
      const internal = await internalBoard(game, leaderboards[1]!);
      expect(await liveClanTotals(internal)).to.deep.equal(new Map([[clan, 40 + 70 + 55 + 55]]));
    });

    it('when a player is banned during 200 concurrent reports, then none of theirs lands and the others rank exactly as without them', async () => {
      const leaderboards = [await createLeaderboard(game), await createLeaderboard(game, { type: 'clan' })];
      const clan = await createClan(game);
      const others = await signupMany(game, 20);
      const cheater = await signup(game);
      await joinClan(game, clan, [cheater, ...others.slice(0, 10)]);
      const best = leaderboards.map(() => new Map<string, number>());
      let banAnswered = false;
      const tasks = Array.from({ length: 200 }, (_, i) => async () => {
        const leaderboard = i % 2;
        const player = i % 4 === 0 ? cheater : others[i % others.length]!;
        const score = 1000 + ((i * 7919) % 5000);
        const res = await reportScore(game, player, leaderboards[leaderboard]!, score);
        if (player === cheater) {
          // Refused once the ban has answered; before, accepted or refused depending on the race.
          expect(res.status, `report ${i}`).to.be.oneOf(banAnswered ? [403] : [200, 403]);
        } else {
          expect(res.status, `report ${i}`).to.equal(200);
          const held = best[leaderboard]!.get(player.playerId) ?? -Infinity;
          best[leaderboard]!.set(player.playerId, Math.max(held, score));
        }
      });
      tasks.splice(60, 0, async () => {
        await ban(game, cheater.playerId).expect(200);
        banAnswered = true;
      });
      await inParallel(tasks, 50);

      for (const [i, leaderboard] of leaderboards.entries()) {
        const { total, rows } = await board(apiKey, leaderboard);
        expect(rows.map((r) => r.id)).to.not.include(cheater.playerId);
        expect(total).to.equal(best[i]!.size);
        expect(asMap(rows)).to.deep.equal(reference(best[i]!));
      }
      const clanTotal = [...best[1]!]
        .filter(([id]) => others.slice(0, 10).some((p) => p.playerId === id))
        .reduce((sum, [, s]) => sum + s, 0);
      expect(await liveClanTotals(await internalBoard(game, leaderboards[1]!))).to.deep.equal(new Map([[clan, clanTotal]]));
    });

    it('when a banned player is in a clan, then the clan total drops their score and moves back whole on unban, also after a clan move while banned', async () => {
      const leaderboard = await createLeaderboard(game, { type: 'clan' });
      const [red, blue] = [await createClan(game), await createClan(game)];
      const [cheater, mate] = await signupMany(game, 2);
      await joinClan(game, red, [cheater!, mate!]);
      await reportScores(game, leaderboard, [
        [cheater!, 70],
        [mate!, 30],
      ]);
      const internal = await internalBoard(game, leaderboard);
      expect(await liveClanTotals(internal)).to.deep.equal(new Map([[red, 100]]));
      await ban(game, cheater!.playerId).expect(200);
      expect(await liveClanTotals(internal)).to.deep.equal(new Map([[red, 30]]));
      await joinClan(game, blue, [cheater!]);
      expect(await liveClanTotals(internal)).to.deep.equal(new Map([[red, 30]]));
      await unban(game, cheater!.playerId).expect(200);
      expect(await liveClanTotals(internal)).to.deep.equal(
        new Map([
          [red, 30],
          [blue, 70],
        ]),
      );
    });

    it('when a clan member is banned, unbanned and erased, then the clan record counts its members at once each time', async () => {
      const leaderboard = await createLeaderboard(game, { type: 'clan' });
      const clan = await createClan(game);
      const members = await signupMany(game, 3);
      await joinClan(game, clan, members);
      await reportScores(
        game,
        leaderboard,
        members.map((member, i) => [member, 10 * (i + 1)]),
      );
      const memberCount = async () => {
        const res = await api().get(`/api/v1/third_party/leaderboards/${leaderboard}/clans/${clan}`).set('Api-Key', apiKey).expect(200);
        return (res.body.clan ?? res.body).member_count as number;
      };
      // Read first, so the count is cached: a change must not leave the cached count behind.
      expect(await memberCount()).to.equal(3);
      await ban(game, members[0]!.playerId).expect(200);
      expect(await memberCount()).to.equal(2);
      await unban(game, members[0]!.playerId).expect(200);
      expect(await memberCount()).to.equal(3);
      await api().delete(`/api/v1/server/players/${members[1]!.playerId}`).set(secretKey(game)).expect(204);
      expect(await memberCount()).to.equal(2);
    });

    it('when a banned player has an Idempotency-Key answer from before the ban, then its retry is refused too', async () => {
      const leaderboard = await createLeaderboard(game);
      const player = await signup(game);
      const send = () =>
        api()
          .post(`/api/v1/client/leaderboards/${leaderboard}/report_score`)
          .set('Publishable-Key', game.publishableKey)
          .set('Anonymous-Authorization', player.token)
          .set('Idempotency-Key', 'retry-1')
          .send({ score: 5 });
      await send().expect(200);
      await ban(game, player.playerId).expect(200);
      expect((await send().expect(403)).body.error.code).to.equal('player_banned');
    });

    it('when a banned player score is removed, then the unban brings back nothing on that board', async () => {
      const [first, second] = [await createLeaderboard(game), await createLeaderboard(game)];
      const player = await signup(game);
      await reportScore(game, player, first, 10).expect(200);
      await reportScore(game, player, second, 20).expect(200);
      await ban(game, player.playerId).expect(200);
      await removeScore(game, first, player.playerId).expect(204);
      await unban(game, player.playerId).expect(200);
      await record(game, first, player.playerId).expect(404);
      expect((await record(game, second, player.playerId).expect(200)).body).to.include({ score: 20 });
    });

    it('when the player is unknown or of another game, then 404 player_not_found and nothing is recorded', async () => {
      const other = await createGame();
      const stranger = await signup(other);
      for (const id of [stranger.playerId, 'no-such-player', 'x'.repeat(300)]) {
        expect((await ban(game, id).expect(404)).body.error.code).to.equal('player_not_found');
        expect((await unban(game, id).expect(404)).body.error.code).to.equal('player_not_found');
      }
      const long = await ban(game, stranger.playerId, 'x'.repeat(501)).expect(400);
      expect(long.body.error.code).to.equal('validation_failed');
    });

    describe('with the worker', () => {
      let worker: ServiceProcess | undefined;
      afterEach(async () => {
        await worker?.stop();
        worker = undefined;
      });

      it('when a player with persisted scores is erased, then PostgreSQL keeps none of them', async () => {
        const leaderboard = await createLeaderboard(game);
        const internal = await internalBoard(game, leaderboard);
        const [leaving, staying] = await signupMany(game, 2);
        worker = await startWorker();
        await reportScores(game, leaderboard, [
          [leaving!, 50],
          [staying!, 5],
        ]);
        await waitForPersistence(internal);
        await api().delete(`/api/v1/server/players/${leaving!.playerId}`).set(secretKey(game)).expect(204);
        expect(await persistedScores(internal)).to.deep.equal(new Map([[staying!.playerId, 5]]));
        await waitForPersistence(internal);
        expect(await persistedScores(internal)).to.deep.equal(new Map([[staying!.playerId, 5]]));
      });

      it('when players of an archived season are banned, removed and erased, then its reads close up and an unban restores them', async () => {
        const leaderboard = await createLeaderboard(game);
        const internal = await internalBoard(game, leaderboard);
        const [first, second, third, fourth] = await signupMany(game, 4);
        worker = await startWorker();
        await reportScores(game, leaderboard, [
          [first!, 40],
          [second!, 30],
          [third!, 20],
          [fourth!, 10],
        ]);
        await api().post(`/api/v1/server/leaderboards/${leaderboard}/reset`).set(secretKey(game)).expect(200);
        await waitForPersistence(internal);
        const archived = async () =>
          (await api().get(`/api/v1/third_party/leaderboards/${leaderboard}?season=1`).set('Api-Key', apiKey).expect(200)).body;
        const rows = (body: { entries: { player_id: string; rank: number }[] }) => body.entries.map((e) => [e.player_id, e.rank]);
        const before = await archived();

        await ban(game, first!.playerId).expect(200);
        const hidden = await archived();
        expect(hidden.total).to.equal(3);
        expect(rows(hidden)).to.deep.equal([
          [second!.playerId, 1],
          [third!.playerId, 2],
          [fourth!.playerId, 3],
        ]);
        await unban(game, first!.playerId).expect(200);
        expect(await archived()).to.deep.equal(before);

        const remove = (player: string, season: string) =>
          api().delete(`/api/v1/server/leaderboards/${leaderboard}/scores/${player}?season=${season}`).set(secretKey(game));
        await remove(second!.playerId, '1').expect(204);
        expect((await remove(second!.playerId, '1').expect(404)).body.error.code).to.equal('record_not_found');
        expect((await remove(third!.playerId, '9').expect(404)).body.error.code).to.equal('season_not_found');
        expect((await remove(third!.playerId, '0').expect(400)).body.error.code).to.equal('validation_failed');
        await api().delete(`/api/v1/server/players/${third!.playerId}`).set(secretKey(game)).expect(204);
        const closed = await archived();
        expect(closed.total).to.equal(2);
        expect(rows(closed)).to.deep.equal([
          [first!.playerId, 1],
          [fourth!.playerId, 2],
        ]);
        const { rows: left } = await testStores().pool.query('SELECT 1 FROM season_entries WHERE player_id = $1', [third!.playerId]);
        expect(left).to.have.length(0);
      });

      it('when Redis loses a board with a banned player and it is rebuilt, then the player stays out and the unban brings the score back', async () => {
        const leaderboard = await createLeaderboard(game, { type: 'clan' });
        const clan = await createClan(game);
        const [cheater, honest] = await signupMany(game, 2);
        await joinClan(game, clan, [cheater!, honest!]);
        const internal = await internalBoard(game, leaderboard);
        worker = await startWorker();
        await reportScores(game, leaderboard, [
          [cheater!, 80],
          [honest!, 20],
        ]);
        await ban(game, cheater!.playerId).expect(200);
        await waitForPersistence(internal);
        // A ban deletes nothing: PostgreSQL keeps the banned player's score.
        expect(await persistedScores(internal)).to.deep.equal(
          new Map([
            [cheater!.playerId, 80],
            [honest!.playerId, 20],
          ]),
        );
        await worker.stop();
        worker = undefined;

        const { redis, allKeys } = testStores();
        await redis.unlink(...allKeys(internal));
        const rebuilt = await runScript('rebuild');
        expect(rebuilt.code, rebuilt.stderr).to.equal(0);

        expect(await board(apiKey, leaderboard)).to.deep.equal({ total: 1, rows: [{ id: honest!.playerId, score: 20, rank: 1 }] });
        expect(await liveClanTotals(internal)).to.deep.equal(new Map([[clan, 20]]));
        expect((await reportScore(game, cheater!, leaderboard, 99).expect(403)).body.error.code).to.equal('player_banned');

        await unban(game, cheater!.playerId).expect(200);
        expect((await record(game, leaderboard, cheater!.playerId).expect(200)).body).to.include({ score: 80, rank: 1 });
        expect(await liveClanTotals(internal)).to.deep.equal(new Map([[clan, 100]]));
      });
    });

    it('when a player is erased, then every trace goes: scores, clan contribution, aliases, avatar, tokens, device binding', async () => {
      const leaderboards = [await createLeaderboard(game), await createLeaderboard(game, { type: 'clan' })];
      const clan = await createClan(game);
      const device = uniqueId('device');
      const leaving = await signup(game, device);
      const staying = await signup(game);
      await joinClan(game, clan, [leaving, staying]);
      await api()
        .patch(`/api/v1/server/players/${leaving.playerId}`)
        .set(secretKey(game))
        .send({ aliases: { steam: `steam-${device}` } })
        .expect(200);
      for (const leaderboard of leaderboards) {
        await reportScores(game, leaderboard, [
          [leaving, 90],
          [staying, 10],
        ]);
      }
      await api().get(`/api/v1/users/${leaving.playerId}/avatar.png`).expect(200);

      await api().delete(`/api/v1/server/players/${leaving.playerId}`).set(secretKey(game)).expect(204);

      for (const leaderboard of leaderboards) {
        expect(await board(apiKey, leaderboard)).to.deep.equal({ total: 1, rows: [{ id: staying.playerId, score: 10, rank: 1 }] });
      }
      expect(await liveClanTotals(await internalBoard(game, leaderboards[1]!))).to.deep.equal(new Map([[clan, 10]]));
      const refused = await reportScore(game, leaving, leaderboards[0]!, 5).expect(401);
      expect(refused.body.error.code).to.equal('invalid_token');
      // A board created after the erasure refuses the token too (each board keeps the erased ids).
      const later = await createLeaderboard(game);
      expect((await reportScore(game, leaving, later, 5).expect(401)).body.error.code).to.equal('invalid_token');
      // Refused first as gone, whatever else the report would be refused for.
      for (const [board, score] of [
        ['no-such-board', 5],
        [later, 'not a number'],
      ] as const) {
        expect((await reportScore(game, leaving, board, score).expect(401)).body.error.code, `${board} ${score}`).to.equal('invalid_token');
      }
      await api()
        .get(`/api/v1/client/leaderboards/${later}`)
        .set('Publishable-Key', game.publishableKey)
        .set('Anonymous-Authorization', leaving.token)
        .expect(401);
      await api()
        .get(`/leaderboards/${leaderboards[0]}?token=${encodeURIComponent(leaving.token)}`)
        .expect(401);
      await api().get(`/api/v1/users/${leaving.playerId}/avatar.png`).expect(404);
      const lookup = await api().get(`/api/v1/server/players/${leaving.playerId}`).set(secretKey(game)).expect(404);
      expect(lookup.body.error.code).to.equal('player_not_found');
      const search = await api().get(`/api/v1/server/players?search=steam-${device}`).set(secretKey(game)).expect(200);
      expect(search.body.players).to.deep.equal([]);
      const members = await api().get(`/api/v1/third_party/leaderboards/${leaderboards[1]}/clans/${clan}/members`).set('Api-Key', apiKey);
      expect(members.body.entries.map((e: { player_id: string }) => e.player_id)).to.deep.equal([staying.playerId]);

      const again = await api().delete(`/api/v1/server/players/${leaving.playerId}`).set(secretKey(game)).expect(404);
      expect(again.body.error.code).to.equal('player_not_found');
      const returning = await signup(game, device);
      expect(returning.playerId).to.not.equal(leaving.playerId);
      await reportScore(game, returning, leaderboards[0]!, 5).expect(200);
    });

    it('when a score is removed, a player banned, unbanned and erased, then the audit log holds each once, newest first, by the Secret-Key', async () => {
      const own = await createGame();
      const leaderboard = await createLeaderboard(own);
      const player = await signup(own);
      await reportScore(own, player, leaderboard, 3).expect(200);
      await removeScore(own, leaderboard, player.playerId).expect(204);
      await ban(own, player.playerId, 'aimbot').expect(200);
      await ban(own, player.playerId, 'again').expect(200);
      await unban(own, player.playerId).expect(200);
      await api().delete(`/api/v1/server/players/${player.playerId}`).set(secretKey(own)).expect(204);
      const { body } = await api().get('/api/v1/server/audit_log').set(secretKey(own)).expect(200);
      const moderation = body.entries
        .filter((e: { action: string }) => /^(score|player)\./.test(e.action))
        .map(({ actor, action, target, details }: Record<string, unknown>) => ({ actor, action, target, details }));
      expect(moderation).to.deep.equal([
        { actor: 'secret_key', action: 'player.delete', target: player.playerId, details: {} },
        { actor: 'secret_key', action: 'player.unban', target: player.playerId, details: {} },
        // The erasure took the reason (it may name the player); the board and season of a removal stay.
        { actor: 'secret_key', action: 'player.ban', target: player.playerId, details: {} },
        { actor: 'secret_key', action: 'score.remove', target: player.playerId, details: { leaderboard_id: leaderboard, season: 1 } },
      ]);
    });

    it('when a leaderboard is created after a ban, then the banned player is refused on it too', async () => {
      const player = await signup(game);
      await ban(game, player.playerId).expect(200);
      const leaderboard = await createLeaderboard(game);
      expect((await reportScore(game, player, leaderboard, 5).expect(403)).body.error.code).to.equal('player_banned');
      await unban(game, player.playerId).expect(200);
      await reportScore(game, player, leaderboard, 5).expect(200);
    });
  });
});
