import { expect } from 'chai';
import { api } from '../helpers/context.js';
import {
  createClan,
  createGame,
  createLeaderboard,
  createThirdPartyKey,
  joinClan,
  reportScore,
  secretKey,
  signupMany,
  uniqueId,
  type TestPlayer,
} from '../helpers/fixtures.js';
import { inParallel } from '../helpers/persistence.js';
import { ReferenceClans } from '../helpers/reference.js';

/**
 * A game of its own with a clan leaderboard, players and clans, and the reference its clan totals
 * are compared with: every change a test makes goes through `join` and `report`, which keep both.
 */
async function clanGame(playerCount: number, clanCount: number) {
  const game = await createGame();
  const leaderboard = await createLeaderboard(game, { type: 'clan' });
  const players = await signupMany(game, playerCount);
  const clans: string[] = [];
  for (let i = 0; i < clanCount; i++) clans.push(await createClan(game));
  const { apiKey } = await createThirdPartyKey(game, 'view');
  const reference = new ReferenceClans();

  const join = async (player: TestPlayer, clan: string | null) => {
    await joinClan(game, clan, [player]);
    reference.join(player.playerId, clan);
  };
  const report = async (player: TestPlayer, score: number) => {
    await reportScore(game, player, leaderboard, score).expect(200);
    reference.report(player.playerId, score);
  };
  const clansView = async () => {
    const res = await api().get(`/api/v1/third_party/leaderboards/${leaderboard}?clan=true`).set('Api-Key', apiKey).expect(200);
    expect(res.body.view).to.equal('clans');
    return res.body;
  };
  const liveTotals = async (): Promise<Record<string, number>> =>
    Object.fromEntries((await clansView()).entries.map((e: { clan_id: string; score: number }) => [e.clan_id, e.score]));
  return { game, leaderboard, players, clans, reference, join, report, clansView, liveTotals };
}

describe('clans and clan totals', () => {
  it('when a clan is created, then it answers with its id, name and no members', async () => {
    const game = await createGame();
    const clan = uniqueId('red');

    const res = await api()
      .put(`/api/v1/server/clans/${clan}`)
      .set(secretKey(game))
      .send({ name: `Clan ${clan}` })
      .expect(201);

    expect(res.body).to.include({ clan_id: clan, name: `Clan ${clan}`, member_count: 0 });
  });

  it('when members report, join, leave and switch, then each total is the sum of its members’ bests', async () => {
    const { players, clans, reference, join, report, liveTotals } = await clanGame(4, 2);
    const [a, b, c, d] = players;
    const [red, blue] = clans;
    await join(a!, red!);
    await join(b!, red!);
    await join(c!, blue!);

    await report(a!, 100);
    await report(b!, 40);
    await report(c!, 70);
    await report(a!, 90); // worse: no change
    expect(await liveTotals()).to.deep.equal(reference.totals());

    await report(d!, 55);
    await join(d!, red!); // joining brings the best score along
    expect(await liveTotals()).to.deep.equal(reference.totals());

    await join(b!, null); // leaving takes it away
    await join(a!, blue!); // switching moves it
    expect(await liveTotals()).to.deep.equal(reference.totals());
  });

  it('when the clans view is read, then clans are ranked by total with member counts', async () => {
    const { players, clans, reference, join, report, clansView } = await clanGame(6, 3);
    const [a, b, c, d, e, loner] = players;
    const [red, blue] = clans; // the third clan has no members, so no total
    for (const [player, clan] of [
      [a, red],
      [b, red],
      [c, blue],
      [d, blue],
      [e, blue],
    ] as const)
      await join(player!, clan!);
    for (const [player, score] of [
      [a, 100],
      [b, 55],
      [c, 70],
      [d, 85],
      [loner, 500],
    ] as const)
      await report(player!, score); // e has no score

    const view = await clansView();

    const expected = Object.entries(reference.totals()).sort(([x, a], [y, b]) => b - a || (x < y ? 1 : -1));
    expect(view.entries.map((e: { clan_id: string }) => e.clan_id)).to.deep.equal(expected.map(([clan]) => clan));
    expect(view.entries[0].rank).to.equal(1);
    expect(view.total).to.equal(expected.length);
    const blueEntry = view.entries.find((e: { clan_id: string }) => e.clan_id === blue);
    expect(blueEntry.member_count).to.equal(reference.members(blue!).length);
  });

  it('when a member improves while switching clans back and forth (raced), then the totals still match', async function () {
    this.timeout(60_000);
    const { game, leaderboard, players, clans, reference, join, report, liveTotals } = await clanGame(3, 2);
    const [racer, redMember, blueMember] = players;
    const [red, blue] = clans;
    await join(redMember!, red!);
    await join(blueMember!, blue!);
    await report(redMember!, 100);
    await report(blueMember!, 70);
    await join(racer!, red!);
    const scores = Array.from({ length: 60 }, (_, i) => 200 + i * 3);
    const switches = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? blue! : red!));

    await Promise.all([
      inParallel(
        scores.map((score) => () => reportScore(game, racer!, leaderboard, score).expect(200)),
        10,
      ),
      inParallel(
        switches.map((clan) => () => joinClan(game, clan, [racer!])),
        1,
      ),
    ]);

    for (const score of scores) reference.report(racer!.playerId, score);
    reference.join(racer!.playerId, switches[switches.length - 1]!);
    expect(await liveTotals()).to.deep.equal(reference.totals());
  });

  it('when a clan is deleted, then its members become clanless and its total disappears', async () => {
    const { game, leaderboard, players, clans, reference, join, report, liveTotals } = await clanGame(3, 2);
    const [a, b, c] = players;
    const [red, blue] = clans;
    await join(a!, blue!);
    await join(b!, blue!);
    await join(c!, red!);
    for (const [player, score] of [
      [a, 100],
      [b, 40],
      [c, 70],
    ] as const)
      await report(player!, score);
    const members = reference.members(blue!);
    expect(members.length).to.be.greaterThan(0);

    await api().delete(`/api/v1/server/clans/${blue}`).set(secretKey(game)).expect(204);

    reference.remove(blue!);
    const totals = await liveTotals();
    expect(totals).to.not.have.property(blue!);
    expect(totals).to.deep.equal(reference.totals());
    const record = await api().get(`/api/v1/client/leaderboards/${leaderboard}/players/${members[0]}`).set(secretKey(game)).expect(200);
    expect(record.body.clan_id).to.equal(null);
    await api().delete(`/api/v1/server/clans/${blue}`).set(secretKey(game)).expect(404);
  });

  it('when a deleted clan id is created again, with ids of the longest length, then old and new members are told apart', async () => {
    const { game, leaderboard, players, reference, join, report, liveTotals } = await clanGame(2, 0);
    const [leaver, joiner] = players;
    const long = uniqueId('long').padEnd(64, 'x');
    await api().put(`/api/v1/server/clans/${long}`).set(secretKey(game)).send({}).expect(201);
    await join(leaver!, long);
    await report(leaver!, 30);

    await api().delete(`/api/v1/server/clans/${long}`).set(secretKey(game)).expect(204);
    reference.remove(long);
    await api().put(`/api/v1/server/clans/${long}`).set(secretKey(game)).send({}).expect(201);
    await join(joiner!, long);
    await report(joiner!, 12);

    expect(await liveTotals()).to.deep.equal(reference.totals());
    expect((await liveTotals())[long]).to.equal(12);
    const record = await api()
      .get(`/api/v1/client/leaderboards/${leaderboard}/players/${joiner!.playerId}`)
      .set(secretKey(game))
      .expect(200);
    expect(record.body.clan_id).to.equal(long);
  });

  it('when a player joins a clan that does not exist, then 404 clan_not_found and nothing moves', async () => {
    const { game, players, clans, join, report, liveTotals } = await clanGame(2, 1);
    const [member, outsider] = players;
    await join(member!, clans[0]!);
    await report(member!, 80);
    await report(outsider!, 60);
    const before = await liveTotals();

    const res = await api()
      .patch(`/api/v1/server/players/${outsider!.playerId}`)
      .set(secretKey(game))
      .send({ clan_id: 'no-such-clan' })
      .expect(404);

    expect(res.body.error.code).to.equal('clan_not_found');
    expect(await liveTotals()).to.deep.equal(before);
  });
});

describe('clan totals at the edges of the number range', () => {
  it('when members report the largest finite scores, then reports succeed and the clan total saturates instead of overflowing', async () => {
    const game = await createGame();
    const leaderboard = await createLeaderboard(game, { type: 'clan' });
    const clan = await createClan(game, uniqueId('huge'));
    const [a, b] = await signupMany(game, 2);
    await joinClan(game, clan, [a!, b!]);
    const { apiKey } = await createThirdPartyKey(game, 'k');
    const clanScore = async () =>
      (await api().get(`/api/v1/third_party/leaderboards/${leaderboard}/clans/${clan}`).set('Api-Key', apiKey).expect(200)).body.score;

    await reportScore(game, a!, leaderboard, -Number.MAX_VALUE).expect(200);
    await reportScore(game, b!, leaderboard, -Number.MAX_VALUE).expect(200);
    expect(await clanScore()).to.equal(-Number.MAX_VALUE);
    await reportScore(game, a!, leaderboard, Number.MAX_VALUE).expect(200);
    await reportScore(game, b!, leaderboard, Number.MAX_VALUE).expect(200);
    expect(await clanScore()).to.equal(Number.MAX_VALUE);
  });
});
