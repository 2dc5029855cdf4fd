import { expect } from 'chai';
import { api, testStores } from '../helpers/context.js';
import {
  createGame,
  createLeaderboard,
  createThirdPartyKey,
  internalBoard,
  reportScore,
  secretKey,
  signupMany,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';
import { boardLosesLiveState, inParallel, waitForPersistence } from '../helpers/persistence.js';
import { startWorker, type ServiceProcess } from '../helpers/processes.js';

const LEAGUE = { size: 5, tiers: ['bronze', 'silver', 'gold'], promote: 1, relegate: 1 };

interface GroupBody {
  tier: string;
  group_id: string;
  total: number;
  entries: { player_id: string; score: number; rank: number; zone: string }[];
}

/**
 * Leagues, first part (docs/competitions.md, part 6): each season a player joins a group of their
 * tier on entering or on their first report, never past the group's size, and reads rank a group
 * within itself with the zone its end would move each player to.
 */
describe('competitions: league groups', function () {
  this.timeout(120_000);
  let game: TestGame;
  let worker: ServiceProcess;
  before(async () => {
    worker = await startWorker();
    game = await createGame();
  });
  after(async () => {
    await worker.stop();
  });

  const client = (player: TestPlayer) => ({ 'Publishable-Key': game.publishableKey, 'Anonymous-Authorization': player.token });
  const put = (id: string, body: Record<string, unknown>) => api().put(`/api/v1/server/leaderboards/${id}`).set(secretKey(game)).send(body);
  const myGroup = (id: string, player: TestPlayer) => api().get(`/api/v1/client/leaderboards/${id}/group`).set(client(player));
  const serverGroup = (id: string, group: string) => api().get(`/api/v1/server/leaderboards/${id}/groups/${group}`).set(secretKey(game));
  const groups = async (id: string, query = '') =>
    (await api().get(`/api/v1/server/leaderboards/${id}/groups?limit=1000${query}`).set(secretKey(game)).expect(200)).body;
  const errorCode = (res: { body: { error: { code: string } } }) => res.body.error.code;

  it('when a board is set up as a league, then its body shows the groups; bad settings are 400, and once scored only tiers may be added', async () => {
    const id = await createLeaderboard(game, { groups: LEAGUE });
    const body = (await api().get(`/api/v1/server/leaderboards/${id}`).set(secretKey(game)).expect(200)).body;
    expect(body.groups).to.deep.equal(LEAGUE);
    for (const groupsValue of [
      { ...LEAGUE, size: 4 },
      { ...LEAGUE, tiers: [] },
      { ...LEAGUE, tiers: ['gold', 'gold'] },
      { ...LEAGUE, tiers: ['Gold'] },
      { size: 10, tiers: ['a'] },
    ]) {
      await put(id, { groups: groupsValue }).expect(400);
    }
    const [player] = await signupMany(game, 1);
    await reportScore(game, player!, id, 10).expect(200);
    expect(errorCode(await put(id, { groups: { ...LEAGUE, size: 10 } }).expect(409))).to.equal('conflict');
    expect(errorCode(await put(id, { groups: null }).expect(409))).to.equal('conflict');
    expect(errorCode(await put(id, { groups: { ...LEAGUE, tiers: ['iron', ...LEAGUE.tiers] } }).expect(409))).to.equal('conflict');
    const added = { ...LEAGUE, tiers: [...LEAGUE.tiers, 'diamond'] };
    expect((await put(id, { groups: added }).expect(200)).body.groups).to.deep.equal(added);
  });

  it('when players have entered or the season has closed, then the groups stay as they are (409)', async () => {
    const id = await createLeaderboard(game, { groups: LEAGUE, join_required: true });
    const [player] = await signupMany(game, 1);
    await api().post(`/api/v1/client/leaderboards/${id}/entry`).set(client(player!)).expect(200);
    expect(errorCode(await put(id, { groups: { ...LEAGUE, size: 10 } }).expect(409))).to.equal('conflict');
    const closing = await createLeaderboard(game, { groups: LEAGUE, closes_at: new Date(Date.now() + 60_000).toISOString() });
    await put(closing, { closes_at: new Date(Date.now() - 1).toISOString() }).expect(200);
    expect(errorCode(await put(closing, { groups: { ...LEAGUE, tiers: [...LEAGUE.tiers, 'diamond'] } }).expect(409))).to.equal('conflict');
    expect(errorCode(await put(closing, { groups: null }).expect(409))).to.equal('conflict');
  });

  it('when 500 players report their first score at once on groups of 25, then 20 groups fill in order, none past 25, each player in exactly one', async () => {
    const id = await createLeaderboard(game, { groups: { ...LEAGUE, size: 25 } });
    const players = await signupMany(game, 500);
    const answers = await inParallel(
      players.map((player, i) => () => reportScore(game, player, id, i)),
      200,
    );
    expect(answers.every((res) => res.status === 200)).to.equal(true);
    const page = await groups(id);
    expect(page.total).to.equal(20);
    expect(page.groups.map((g: { group_id: string }) => g.group_id)).to.deep.equal(Array.from({ length: 20 }, (_, i) => String(i + 1)));
    expect(page.groups.every((g: { players: number; tier: string }) => g.players === 25 && g.tier === 'bronze')).to.equal(true);
    const members = (
      await Promise.all(page.groups.map(async (g: { group_id: string }) => (await serverGroup(id, g.group_id).expect(200)).body))
    ).flatMap((group: GroupBody) => group.entries.map((entry) => entry.player_id));
    expect(members).to.have.length(500);
    expect(new Set(members)).to.deep.equal(new Set(players.map((player) => player.playerId)));
  });

  it('when a player reads their group, then it is ranked within itself with zones, and their record carries tier, group and group rank', async () => {
    const id = await createLeaderboard(game, { groups: LEAGUE });
    const players = await signupMany(game, 7);
    // 5 fill group 1, in this order; the next 2 open group 2.
    for (const [i, player] of players.entries()) await reportScore(game, player, id, [50, 40, 40, 20, 10, 70, 60][i]).expect(200);
    const first = (await myGroup(id, players[3]!).expect(200)).body as GroupBody;
    expect(first).to.include({ tier: 'bronze', group_id: '1', total: 5 });
    expect(first.entries.map((e) => [e.score, e.rank, e.zone])).to.deep.equal([
      [50, 1, 'promote'],
      [40, 2, 'stay'],
      [40, 2, 'stay'],
      [20, 4, 'stay'],
      // The lowest tier relegates nobody.
      [10, 5, 'stay'],
    ]);
    const second = (await myGroup(id, players[6]!).expect(200)).body as GroupBody;
    expect(second).to.include({ group_id: '2', total: 2 });
    expect(second.entries.map((e) => [e.player_id, e.rank])).to.deep.equal([
      [players[5]!.playerId, 1],
      [players[6]!.playerId, 2],
    ]);
    const record = (await api().get(`/api/v1/client/leaderboards/${id}/players/${players[2]!.playerId}`).set(secretKey(game)).expect(200))
      .body;
    expect(record).to.include({ rank: 4, tier: 'bronze', group_id: '1', group_rank: 2 });
    // The third party reads the same, by group or by player.
    const { apiKey } = await createThirdPartyKey(game);
    const byGroup = await api().get(`/api/v1/third_party/leaderboards/${id}/groups/2`).set('Api-Key', apiKey).expect(200);
    expect(byGroup.body).to.deep.equal(second);
    const byPlayer = await api()
      .get(`/api/v1/third_party/leaderboards/${id}/player/${players[0]!.playerId}/group`)
      .set('Api-Key', apiKey)
      .expect(200);
    expect(byPlayer.body).to.deep.equal(first);
    // Unknown groups and boards without groups.
    expect(errorCode(await serverGroup(id, '3').expect(404))).to.equal('group_not_found');
    const plain = await createLeaderboard(game);
    expect(errorCode(await serverGroup(plain, '1').expect(404))).to.equal('group_not_found');
    expect(errorCode(await myGroup(plain, players[0]!).expect(404))).to.equal('group_not_found');
    await serverGroup(id, 'x').expect(400);
    expect((await groups(id, '&tier=silver')).total).to.equal(0);
    await api().get(`/api/v1/server/leaderboards/${id}/groups?tier=platinum`).set(secretKey(game)).expect(400);
  });

  it('when players enter, are banned, withdraw or are erased, then the group holds their place, hides them, and gives it back', async () => {
    const id = await createLeaderboard(game, { groups: LEAGUE, join_required: true });
    const players = await signupMany(game, 6);
    for (const player of players.slice(0, 5)) {
      await api().post(`/api/v1/client/leaderboards/${id}/entry`).set(client(player)).expect(200);
    }
    // Entered: in a group, not ranked in it until they report.
    expect((await myGroup(id, players[0]!).expect(200)).body).to.include({ group_id: '1', total: 0 });
    await reportScore(game, players[0]!, id, 30).expect(200);
    await reportScore(game, players[1]!, id, 20).expect(200);
    expect((await groups(id)).groups).to.deep.equal([{ group_id: '1', tier: 'bronze', players: 5 }]);
    // Banned: out of the standings, still holding the place.
    await api().post(`/api/v1/server/players/${players[0]!.playerId}/ban`).set(secretKey(game)).send({}).expect(200);
    const hidden = (await serverGroup(id, '1').expect(200)).body as GroupBody;
    expect(hidden.entries.map((e) => e.player_id)).to.deep.equal([players[1]!.playerId]);
    // A withdrawal and an erasure give places back: the next players join group 1 again.
    await api().delete(`/api/v1/client/leaderboards/${id}/entry`).set(client(players[4]!)).expect(200);
    await api().delete(`/api/v1/server/players/${players[1]!.playerId}`).set(secretKey(game)).expect(204);
    await api().post(`/api/v1/client/leaderboards/${id}/entry`).set(client(players[5]!)).expect(200);
    expect((await groups(id)).groups).to.deep.equal([{ group_id: '1', tier: 'bronze', players: 4 }]);
    expect((await myGroup(id, players[4]!).expect(404)).body.error.code).to.equal('record_not_found');
  });

  it('when Redis loses the board mid-season, then every player is back in the same group, and new players fill the room left', async () => {
    const id = await createLeaderboard(game, { groups: LEAGUE });
    const players = await signupMany(game, 8);
    for (const [i, player] of players.slice(0, 7).entries()) await reportScore(game, player, id, 10 * i).expect(200);
    const before = [(await serverGroup(id, '1').expect(200)).body, (await serverGroup(id, '2').expect(200)).body];
    const board = await internalBoard(game, id);
    await waitForPersistence(board);
    await boardLosesLiveState(board);
    expect([(await serverGroup(id, '1').expect(200)).body, (await serverGroup(id, '2').expect(200)).body]).to.deep.equal(before);
    await reportScore(game, players[7]!, id, 5).expect(200);
    expect((await groups(id)).groups).to.deep.equal([
      { group_id: '1', tier: 'bronze', players: 5 },
      { group_id: '2', tier: 'bronze', players: 3 },
    ]);
    await waitForPersistence(board);
    const { rows } = await testStores().pool.query<{ group_no: number; count: number }>(
      'SELECT group_no, count(*)::int AS count FROM season_seats WHERE leaderboard_internal_id = $1 GROUP BY group_no ORDER BY group_no',
      [board.internalId],
    );
    expect(rows).to.deep.equal([
      { group_no: 1, count: 5 },
      { group_no: 2, count: 3 },
    ]);
  });

  it('when a season ends, then the next one forms its groups afresh', async () => {
    const id = await createLeaderboard(game, { groups: LEAGUE });
    const players = await signupMany(game, 3);
    for (const player of players) await reportScore(game, player, id, 1).expect(200);
    await api().post(`/api/v1/server/leaderboards/${id}/reset`).set(secretKey(game)).expect(200);
    expect((await groups(id)).total).to.equal(0);
    expect((await myGroup(id, players[0]!).expect(404)).body.error.code).to.equal('record_not_found');
    await reportScore(game, players[2]!, id, 1).expect(200);
    expect((await groups(id)).groups).to.deep.equal([{ group_id: '1', tier: 'bronze', players: 1 }]);
  });
});
