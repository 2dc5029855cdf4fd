import { expect } from 'chai';
import { api } from '../helpers/context.js';
import { createGame, createLeaderboard, reportScore, signupMany, uniqueId, type TestGame, type TestPlayer } from '../helpers/fixtures.js';
import { inParallel } from '../helpers/persistence.js';

describe('clans and clan totals', () => {
  let game: TestGame;
  let leaderboard: string;
  let players: TestPlayer[];
  const best = new Map<string, number>();
  const clanOf = new Map<string, string | null>();
  const [red, blue, green] = [uniqueId('red'), uniqueId('blue'), uniqueId('green')];

  const server = () => ({ 'Secret-Key': game.secretKey });
  const setClan = async (player: TestPlayer, clan: string | null) => {
    await api().patch(`/api/v1/server/players/${player.playerId}`).set(server()).send({ clan_id: clan }).expect(200);
    clanOf.set(player.playerId, clan);
  };
  const report = async (player: TestPlayer, score: number) => {
    await reportScore(game, player, leaderboard, score).expect(200);
    best.set(player.playerId, Math.max(best.get(player.playerId) ?? -Infinity, score));
  };
  const expectedTotals = () => {
    const totals: Record<string, number> = {};
    for (const [player, clan] of clanOf) {
      if (clan && best.has(player)) totals[clan] = (totals[clan] ?? 0) + best.get(player)!;
    }
    return totals;
  };
  const clansView = async () => {
    const key = await api().post('/api/v1/server/third_party_keys').set(server()).send({ name: 'view' }).expect(201);
    const res = await api().get(`/api/v1/third_party/leaderboards/${leaderboard}?clan=true`).set('Api-Key', key.body.api_key).expect(200);
    expect(res.body.view).to.equal('clans');
    return res.body;
  };
  const liveTotals = async () =>
    Object.fromEntries((await clansView()).entries.map((e: { clan_id: string; score: number }) => [e.clan_id, e.score]));

  before(async () => {
    game = await createGame();
    leaderboard = await createLeaderboard(game, { type: 'clan' });
    players = await signupMany(game, 8);
    for (const clan of [red, blue, green]) {
      const res = await api().put(`/api/v1/server/clans/${clan}`).set(server()).send({ name: `Clan ${clan}` }).expect(201);
      expect(res.body).to.include({ clan_id: clan, name: `Clan ${clan}`, member_count: 0 });
    }
  });

  it('when members report, join, leave and switch, then each total is the sum of its members’ bests', async () => {
    const [a, b, c, d] = players;
    await setClan(a!, red);
    await setClan(b!, red);
    await setClan(c!, blue);
    await report(a!, 100);
    await report(b!, 40);
    await report(c!, 70);
    await report(a!, 90); // worse: no change
    expect(await liveTotals()).to.deep.equal(expectedTotals());

    await report(d!, 55);
    await setClan(d!, red); // joining brings the best score along
    expect(await liveTotals()).to.deep.equal(expectedTotals());

    await setClan(b!, null); // leaving takes it away
    await setClan(a!, blue); // switching moves it
    expect(await liveTotals()).to.deep.equal(expectedTotals());
  });

  it('when the clans view is read, then clans are ranked by total with member counts', async () => {
    const view = await clansView();
    const totals = expectedTotals();
    const expected = Object.entries(totals).sort(([x, a], [y, b]) => b - a || (x < y ? 1 : -1));
    expect(view.entries.map((e: { clan_id: string }) => e.clan_id)).to.deep.equal(expected.map(([clan]) => clan));
    expect(view.entries[0].rank).to.equal(1);
    expect(view.total).to.equal(expected.length);
    const blueEntry = view.entries.find((e: { clan_id: string }) => e.clan_id === blue);
    expect(blueEntry.member_count).to.equal([...clanOf.values()].filter((clan) => clan === blue).length);
  });

  it('when a member improves while switching clans back and forth (raced), then the totals still match', async function () {
    this.timeout(60_000);
    const racer = players[4]!;
    await setClan(racer, red);
    const scores = Array.from({ length: 60 }, (_, i) => 200 + i * 3);
    const switches = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? blue : red));
    await Promise.all([
      inParallel(scores.map((score) => () => reportScore(game, racer, leaderboard, score).expect(200)), 10),
      inParallel(switches.map((clan) => () => api().patch(`/api/v1/server/players/${racer.playerId}`).set(server()).send({ clan_id: clan }).expect(200)), 1),
    ]);
    best.set(racer.playerId, Math.max(...scores));
    clanOf.set(racer.playerId, switches[switches.length - 1]!);
    expect(await liveTotals()).to.deep.equal(expectedTotals());
  });

  it('when a clan is deleted, then its members become clanless and its total disappears', async () => {
    const members = [...clanOf].filter(([, clan]) => clan === blue).map(([player]) => player);
    expect(members.length).to.be.greaterThan(0);
    await api().delete(`/api/v1/server/clans/${blue}`).set(server()).expect(204);
    for (const player of members) clanOf.set(player, null);
    const totals = await liveTotals();
    expect(totals).to.not.have.property(blue);
    expect(totals).to.deep.equal(expectedTotals());
    const record = await api().get(`/api/v1/client/leaderboards/${leaderboard}/players/${members[0]}`).set(server()).expect(200);
    expect(record.body.clan_id).to.equal(null);
    await api().delete(`/api/v1/server/clans/${blue}`).set(server()).expect(404);
  });

  it('when a deleted clan id is created again, with ids of the longest length, then old and new members are told apart', async () => {
    const [leaver, joiner] = [players[6]!, players[7]!];
    const long = uniqueId('long').padEnd(64, 'x');
    await api().put(`/api/v1/server/clans/${long}`).set(server()).send({}).expect(201);
    await setClan(leaver, long);
    await report(leaver, 30);
    await api().delete(`/api/v1/server/clans/${long}`).set(server()).expect(204);
    clanOf.set(leaver.playerId, null);
    await api().put(`/api/v1/server/clans/${long}`).set(server()).send({}).expect(201);
    await setClan(joiner, long);
    await report(joiner, 12);
    expect(await liveTotals()).to.deep.equal(expectedTotals());
    expect((await liveTotals())[long]).to.equal(12);
    const record = await api().get(`/api/v1/client/leaderboards/${leaderboard}/players/${joiner.playerId}`).set(server()).expect(200);
    expect(record.body.clan_id).to.equal(long);
  });

  it('when a player joins a clan that does not exist, then 404 clan_not_found and nothing moves', async () => {
    const before = await liveTotals();
    const res = await api().patch(`/api/v1/server/players/${players[5]!.playerId}`).set(server()).send({ clan_id: 'no-such-clan' }).expect(404);
    expect(res.body.error.code).to.equal('clan_not_found');
    expect(await liveTotals()).to.deep.equal(before);
  });
});

describe('clan totals at the edges of the number range', () => {
  it('when members report the largest finite scores, then reports succeed and the clan total saturates instead of overflowing', async () => {
    const game = await createGame();
    const leaderboard = await createLeaderboard(game, { type: 'clan' });
    const clan = uniqueId('huge');
    await api().put(`/api/v1/server/clans/${clan}`).set('Secret-Key', game.secretKey).send({}).expect(201);
    const [a, b] = await signupMany(game, 2);
    for (const player of [a!, b!]) {
      await api().patch(`/api/v1/server/players/${player.playerId}`).set('Secret-Key', game.secretKey).send({ clan_id: clan }).expect(200);
    }
    const key = await api().post('/api/v1/server/third_party_keys').set('Secret-Key', game.secretKey).send({ name: 'k' }).expect(201);
    const clanScore = async () =>
      (await api().get(`/api/v1/third_party/leaderboards/${leaderboard}/clans/${clan}`).set('Api-Key', key.body.api_key).expect(200)).body.score;

    await reportScore(game, a!, leaderboard, -Number.MAX_VALUE).expect(200);
    await reportScore(game, b!, leaderboard, -Number.MAX_VALUE).expect(200);
    expect(await clanScore()).to.equal(-Number.MAX_VALUE);
    await reportScore(game, a!, leaderboard, Number.MAX_VALUE).expect(200);
    await reportScore(game, b!, leaderboard, Number.MAX_VALUE).expect(200);
    expect(await clanScore()).to.equal(Number.MAX_VALUE);
  });
});
