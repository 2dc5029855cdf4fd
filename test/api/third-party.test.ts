import { expect } from 'chai';
import { api } from '../helpers/context.js';
import {
  createClan,
  createGame,
  createLeaderboard,
  createThirdPartyKey,
  joinClan,
  scoredPlayers,
  serverReport,
  signupMany,
  uniqueId,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';
import { ReferenceBoard } from '../helpers/reference.js';
import { startApi, type ServiceProcess } from '../helpers/processes.js';

describe('third-party reads', () => {
  let game: TestGame;
  let apiKey: string;
  let keyId: string;
  let leaderboard: string;
  let clanBoard: string;
  let players: TestPlayer[];
  let clan: string;
  const reference = new ReferenceBoard('desc');

  const read = (path: string) => api().get(path).set('Api-Key', apiKey);

  before(async function () {
    this.timeout(60_000);
    game = await createGame();
    leaderboard = await createLeaderboard(game);
    clanBoard = await createLeaderboard(game, { type: 'clan' });
    players = await signupMany(game, 120);
    clan = await createClan(game, uniqueId('clan'), 'The Clan');
    for (const [i, player] of players.entries()) {
      const score = Math.floor(i / 3) * 10; // ties in threes
      reference.report(player.playerId, score);
      await serverReport(game, player.playerId, [score, score], [leaderboard, clanBoard]);
    }
    await joinClan(game, clan, players.slice(0, 5));
    ({ apiKey, keyId } = await createThirdPartyKey(game, 'bot'));
    expect(apiKey).to.match(/^tpk_/);
  });

  describe('paging', () => {
    const page = async (query: string) => (await read(`/api/v1/third_party/leaderboards/${leaderboard}?${query}`).expect(200)).body;
    const flat = (entries: { player_id: string; score: number; rank: number }[]) =>
      entries.map((e) => ({ player: e.player_id, score: e.score, rank: e.rank }));

    it('when offset is 0, then the first page equals the reference ordering', async () => {
      const body = await page('');
      expect(body).to.include({
        leaderboard_id: leaderboard,
        type: 'individual',
        sort_order: 'desc',
        view: 'players',
        total: 120,
        limit: 50,
        offset: 0,
      });
      expect(flat(body.entries)).to.deep.equal(reference.ordered().slice(0, 50));
    });

    it('when reading the last page and past the end, then the tail and then nothing, with the right total', async () => {
      expect(flat((await page('limit=50&offset=100')).entries)).to.deep.equal(reference.ordered().slice(100));
      const past = await page('limit=50&offset=500');
      expect(past).to.include({ total: 120, offset: 500 });
      expect(past.entries).to.deep.equal([]);
    });

    it('when limit is 1 or 1000, then one entry or all of them', async () => {
      expect(flat((await page('limit=1&offset=7')).entries)).to.deep.equal(reference.ordered().slice(7, 8));
      expect(flat((await page('limit=1000')).entries)).to.deep.equal(reference.ordered());
    });

    it('when limit or offset is not a plain number in range, then 400 validation_failed', async () => {
      for (const query of [
        'limit=0',
        'limit=1001',
        'limit=-1',
        'limit=abc',
        'limit=1.5',
        'limit=',
        'offset=-1',
        'offset=x',
        'limit=1&limit=2',
      ]) {
        const res = await read(`/api/v1/third_party/leaderboards/${leaderboard}?${query}`).expect(400);
        expect(res.body.error.code, query).to.equal('validation_failed');
      }
    });

    it('when clan=true on an individual leaderboard, then 400 not_a_clan_leaderboard', async () => {
      const res = await read(`/api/v1/third_party/leaderboards/${leaderboard}?clan=true`).expect(400);
      expect(res.body.error.code).to.equal('not_a_clan_leaderboard');
    });
  });

  describe('players, aliases and clans', () => {
    it('when alias_type is absent, then the alias is the player id; with it, the aliased player', async () => {
      const player = players[10]!;
      const steamId = uniqueId('steam');
      const patched = await api()
        .patch(`/api/v1/server/players/${player.playerId}`)
        .set('Secret-Key', game.secretKey)
        .send({ aliases: { steam: steamId, discord: 'd-1' } })
        .expect(200);
      expect(patched.body.aliases).to.deep.equal({ discord: 'd-1', steam: steamId });
      const byId = await read(`/api/v1/third_party/leaderboards/${leaderboard}/player/${player.playerId}`).expect(200);
      const byAlias = await read(`/api/v1/third_party/leaderboards/${leaderboard}/player/${steamId}?alias_type=steam`).expect(200);
      expect(byAlias.body).to.deep.equal(byId.body);
      expect(byId.body).to.include({ player_id: player.playerId, rank: reference.rank(player.playerId), total: 120 });
    });

    it('when an alias is unknown, then 404; when another player holds it, then 409 already_exists', async () => {
      const missing = await read(`/api/v1/third_party/leaderboards/${leaderboard}/player/nobody?alias_type=steam`).expect(404);
      expect(missing.body.error.code).to.equal('player_not_found');
      const alias = uniqueId('epic');
      await api()
        .patch(`/api/v1/server/players/${players[20]!.playerId}`)
        .set('Secret-Key', game.secretKey)
        .send({ aliases: { epic: alias } })
        .expect(200);
      const taken = await api()
        .patch(`/api/v1/server/players/${players[21]!.playerId}`)
        .set('Secret-Key', game.secretKey)
        .send({ display_name: 'Thief', aliases: { epic: alias } })
        .expect(409);
      expect(taken.body.error.code).to.equal('already_exists');
      const unchanged = await read(`/api/v1/third_party/leaderboards/${leaderboard}/player/${players[21]!.playerId}`).expect(200);
      expect(unchanged.body.display_name).to.not.equal('Thief');
    });

    it('when clan=true, then the player’s clan record; without a clan, 404 clan_not_found', async () => {
      const member = await read(`/api/v1/third_party/leaderboards/${clanBoard}/player/${players[0]!.playerId}?clan=true`).expect(200);
      const members = players.slice(0, 5).map((p) => reference.best.get(p.playerId)!);
      expect(member.body).to.deep.equal({
        leaderboard_id: clanBoard,
        clan_id: clan,
        name: 'The Clan',
        score: members.reduce((a, b) => a + b, 0),
        rank: 1,
        member_count: 5,
        total: 1,
      });
      const loner = await read(`/api/v1/third_party/leaderboards/${clanBoard}/player/${players[50]!.playerId}?clan=true`).expect(404);
      expect(loner.body.error.code).to.equal('clan_not_found');
      const direct = await read(`/api/v1/third_party/leaderboards/${clanBoard}/clans/${clan}`).expect(200);
      expect(direct.body).to.deep.equal(member.body);
      await read(`/api/v1/third_party/leaderboards/${clanBoard}/clans/no-such-clan`).expect(404);
    });

    it('when members are listed, then best first with global and clan ranks, unscored members last', async () => {
      // A leaderboard and clan of its own: the shared ones keep their members and totals for the other tests.
      const board = await createLeaderboard(game, { type: 'clan' });
      const memberScores = [0, 0, 0, 10, 10];
      const members = await scoredPlayers(game, board, memberScores);
      await scoredPlayers(game, board, [20, 5]); // outside the clan: global ranks differ from clan ranks
      const [newcomer] = await signupMany(game, 1);
      const own = await createClan(game);
      await joinClan(game, own, [...members, newcomer!]);

      const res = await read(`/api/v1/third_party/leaderboards/${board}/clans/${own}/members?limit=10`).expect(200);

      expect(res.body).to.include({ leaderboard_id: board, clan_id: own, total: 6, limit: 10, offset: 0 });
      const entries = res.body.entries.map(
        (e: { player_id: string; score: number | null; rank: number | null; clan_rank: number | null }) => [
          e.player_id,
          e.score,
          e.rank,
          e.clan_rank,
        ],
      );
      // members 0-2 score 0 and 3-4 score 10: clan ranks 1, 1, 3, 3, 3
      expect(entries.slice(0, 5).map((e: unknown[]) => e[3])).to.deep.equal([1, 1, 3, 3, 3]);
      expect(entries.slice(0, 5).map((e: unknown[]) => e[1])).to.deep.equal([10, 10, 0, 0, 0]);
      const idsScoring = (score: number) => members.filter((_, i) => memberScores[i] === score).map((p) => p.playerId);
      expect(entries.slice(0, 2).map((e: unknown[]) => e[0])).to.have.members(idsScoring(10));
      expect(entries.slice(2, 5).map((e: unknown[]) => e[0])).to.have.members(idsScoring(0));
      expect(entries.slice(0, 5).map((e: unknown[]) => e[2])).to.deep.equal([2, 2, 5, 5, 5]);
      expect(entries[5]).to.deep.equal([newcomer!.playerId, null, null, null]);
    });
  });

  describe('credentials', () => {
    it('when a third-party key is used on any other endpoint, then it is refused', async () => {
      const client = api();
      await client.get('/api/v1/server/leaderboards').set('Api-Key', apiKey).expect(401);
      await client
        .post('/api/v1/server/report_scores')
        .set('Api-Key', apiKey)
        .send({ player_id: 'x', scores: [1], leaderboard_ids: [leaderboard] })
        .expect(401);
      await client.get(`/api/v1/client/leaderboards/${leaderboard}/players/${players[0]!.playerId}`).set('Api-Key', apiKey).expect(401);
      await client.post('/api/v1/signup/anonymous').set('Api-Key', apiKey).send({}).expect(401);
      await client.get(`/api/v1/server/leaderboards`).set('Secret-Key', apiKey).expect(401);
      await client.get(`/api/v1/client/leaderboards/${leaderboard}`).set('Publishable-Key', apiKey).expect(401);
    });

    it("when a key of another game is used, then this game's data is not found", async () => {
      const other = await createGame();
      const key = await api().post('/api/v1/server/third_party_keys').set('Secret-Key', other.secretKey).send({ name: 'x' }).expect(201);
      const res = await api().get(`/api/v1/third_party/leaderboards/${leaderboard}`).set('Api-Key', key.body.api_key).expect(404);
      expect(res.body.error.code).to.equal('leaderboard_not_found');
    });

    it('when a key is revoked, then every API process refuses it within 1 second', async function () {
      this.timeout(30_000);
      const key = await api()
        .post('/api/v1/server/third_party_keys')
        .set('Secret-Key', game.secretKey)
        .send({ name: 'short-lived' })
        .expect(201);
      const second: ServiceProcess = await startApi();
      try {
        const path = `${second.url}/api/v1/third_party/leaderboards/${leaderboard}?limit=1`;
        const get = () => fetch(path, { headers: { 'Api-Key': key.body.api_key } }).then((r) => r.status);
        expect(await get()).to.equal(200); // now cached in the second process
        await api().delete(`/api/v1/server/third_party_keys/${key.body.key_id}`).set('Secret-Key', game.secretKey).expect(204);
        const revokedAt = Date.now();
        let status = await get();
        while (status === 200 && Date.now() - revokedAt < 1000) status = await get();
        expect(status).to.equal(401);
        expect(Date.now() - revokedAt).to.be.below(1000);
      } finally {
        await second.stop();
      }
      const list = await api().get('/api/v1/server/third_party_keys').set('Secret-Key', game.secretKey).expect(200);
      const listed = list.body.keys.find((k: { key_id: string }) => k.key_id === key.body.key_id);
      expect(listed.revoked_at).to.be.a('string');
      expect(list.body.keys.find((k: { key_id: string }) => k.key_id === keyId).revoked_at).to.equal(null);
      expect(JSON.stringify(list.body)).to.not.include('tpk_');
      expect(list.body).to.include({ total: list.body.keys.length, limit: 50, offset: 0 });
      const paged = await api().get('/api/v1/server/third_party_keys?limit=1&offset=1').set('Secret-Key', game.secretKey).expect(200);
      expect(paged.body.keys.map((k: { key_id: string }) => k.key_id)).to.deep.equal([list.body.keys[1].key_id]);
    });

    it('when an unknown key is revoked, then 404 key_not_found', async () => {
      const res = await api().delete('/api/v1/server/third_party_keys/nope').set('Secret-Key', game.secretKey).expect(404);
      expect(res.body.error.code).to.equal('key_not_found');
    });
  });
});
