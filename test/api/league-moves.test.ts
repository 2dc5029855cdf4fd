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
import { boardLosesLiveState, waitForPersistence } from '../helpers/persistence.js';
import { startWorker, type ServiceProcess } from '../helpers/processes.js';

const LEAGUE = { size: 5, tiers: ['bronze', 'silver', 'gold'], promote: 1, relegate: 1 };

interface GroupBody {
  season: number;
  tier: string;
  group_id: string;
  entries: { player_id: string; score: number; rank: number; zone?: string; moved_to?: string }[];
}

/**
 * Leagues, second part (docs/competitions.md, part 6): at a season's end the best of each group move
 * up a tier and the worst down one, once; the next season's groups form at the new tiers, the
 * archive keeps every group's standings and moves, and a lost Redis dataset gets the tiers back.
 */
describe('competitions: league moves at a season end', function () {
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
  const myGroup = (id: string, player: TestPlayer, query = '') =>
    api().get(`/api/v1/client/leaderboards/${id}/group${query}`).set(client(player));
  const serverGroup = (id: string, group: string, query = '') =>
    api().get(`/api/v1/server/leaderboards/${id}/groups/${group}${query}`).set(secretKey(game));
  const reset = (id: string) => api().post(`/api/v1/server/leaderboards/${id}/reset`).set(secretKey(game)).expect(200);
  const closeNow = (id: string) =>
    api()
      .put(`/api/v1/server/leaderboards/${id}`)
      .set(secretKey(game))
      .send({ closes_at: new Date(Date.now() - 1).toISOString() })
      .expect(200);
  /** Each player's tier as their first report of the new season puts them in a group. */
  const tiersNextSeason = async (id: string, players: TestPlayer[]) => {
    for (const player of players) await reportScore(game, player, id, 1).expect(200);
    return Promise.all(players.map((player) => tierOf(id, player)));
  };
  const tierOf = async (id: string, player: TestPlayer) => ((await myGroup(id, player).expect(200)).body as GroupBody).tier;

  /** Five players in one bronze group, scored 50 (best) down to 10, and the board's internal row. */
  async function seasonOfFive(settings: Record<string, unknown> = {}) {
    const id = await createLeaderboard(game, { groups: { ...LEAGUE, promote: 2, relegate: 2 }, ...settings });
    const players = await signupMany(game, 5);
    for (const [i, player] of players.entries()) await reportScore(game, player, id, 50 - 10 * i).expect(200);
    return { id, players, board: await internalBoard(game, id) };
  }

  it('when a season ends, then the best of each group move up a tier for the next one, and the lowest tier relegates nobody', async () => {
    const { id, players } = await seasonOfFive();
    await reset(id);
    // Each player's first report of season 2 puts them in a group of the tier season 1 gave them.
    expect(await tiersNextSeason(id, players)).to.deep.equal(['silver', 'silver', 'bronze', 'bronze', 'bronze']);
    const silver = (await myGroup(id, players[0]!).expect(200)).body as GroupBody;
    expect(silver.entries.map((entry) => entry.player_id)).to.have.members(players.slice(0, 2).map((p) => p.playerId));
    expect(silver.group_id).to.not.equal((await myGroup(id, players[2]!).expect(200)).body.group_id);
  });

  it('when a season is archived, then its groups read with each member’s rank and the tier they moved to, for clients, servers and bots', async () => {
    const { id, players, board } = await seasonOfFive();
    const groupId = ((await myGroup(id, players[0]!).expect(200)).body as GroupBody).group_id;
    await reset(id);
    await waitForPersistence(board);
    const archived = (await serverGroup(id, groupId, '?season=1').expect(200)).body as GroupBody;
    expect(archived).to.include({ season: 1, tier: 'bronze', group_id: groupId });
    expect(archived.entries.map((e) => [e.player_id, e.rank, e.moved_to, e.zone])).to.deep.equal([
      [players[0]!.playerId, 1, 'silver', undefined],
      [players[1]!.playerId, 2, 'silver', undefined],
      [players[2]!.playerId, 3, 'bronze', undefined],
      [players[3]!.playerId, 4, 'bronze', undefined],
      [players[4]!.playerId, 5, 'bronze', undefined],
    ]);
    expect(((await myGroup(id, players[3]!, '?season=1').expect(200)).body as GroupBody).entries).to.deep.equal(archived.entries);
    const { apiKey } = await createThirdPartyKey(game);
    const bot = await api().get(`/api/v1/third_party/leaderboards/${id}/groups/${groupId}?season=1`).set('Api-Key', apiKey).expect(200);
    expect(bot.body.entries.map((e: { moved_to: string }) => e.moved_to)).to.deep.equal(['silver', 'silver', 'bronze', 'bronze', 'bronze']);
    const list = (await api().get(`/api/v1/server/leaderboards/${id}/groups?season=1&tier=bronze`).set(secretKey(game)).expect(200)).body;
    expect(list.groups).to.deep.equal([{ group_id: groupId, tier: 'bronze', players: 5 }]);
    // A ban after the archive hides the member and closes the group's ranks up; the move stands.
    await api().post(`/api/v1/server/players/${players[0]!.playerId}/ban`).set(secretKey(game)).send({ reason: 'cheat' }).expect(200);
    const closedUp = (await serverGroup(id, groupId, '?season=1').expect(200)).body as GroupBody;
    expect(closedUp.entries.map((e) => [e.player_id, e.rank])).to.deep.equal(players.slice(1).map((p, i) => [p.playerId, i + 1]));
    const { rows } = await testStores().pool.query(
      'SELECT player_id, tier, moved_season FROM league_tiers WHERE leaderboard_internal_id = $1 ORDER BY tier DESC, player_id',
      [board.internalId],
    );
    expect(rows).to.have.deep.members(players.slice(0, 2).map((p) => ({ player_id: p.playerId, tier: 1, moved_season: 1 })));
    expect((await serverGroup(id, '99', '?season=1').expect(404)).body.error.code).to.equal('group_not_found');
    expect((await serverGroup(id, groupId, '?season=7').expect(404)).body.error.code).to.equal('group_not_found');
  });

  it('when a window closes, then the group shows the tier each member moves to instead of a zone', async () => {
    const { id, players } = await seasonOfFive({ closes_at: new Date(Date.now() + 60_000).toISOString() });
    expect(((await myGroup(id, players[0]!).expect(200)).body as GroupBody).entries.map((e) => e.zone)).to.deep.equal([
      'promote',
      'promote',
      'stay',
      'stay',
      'stay',
    ]);
    await closeNow(id);
    const closed = (await myGroup(id, players[0]!).expect(200)).body as GroupBody;
    expect(closed.entries.map((e) => [e.moved_to, e.zone])).to.deep.equal([
      ['silver', undefined],
      ['silver', undefined],
      ['bronze', undefined],
      ['bronze', undefined],
      ['bronze', undefined],
    ]);
  });

  it('when the first players of a season join while the moves are not applied yet, then they wait for them and join at the new tier', async () => {
    const { id, players, board } = await seasonOfFive();
    const { redis, keys } = testStores();
    await worker.stop(); // no worker: the moves wait for the first player who needs them
    try {
      await reset(id);
      expect(await redis.hget(keys(board).tiers, ':moves')).to.equal('1');
      await reportScore(game, players[1]!, id, 1).expect(200);
      expect(await redis.hget(keys(board).tiers, ':moves')).to.equal(null);
      expect(await tierOf(id, players[1]!)).to.equal('silver');
      // Entering joins a group too.
      const entered = await api().post(`/api/v1/client/leaderboards/${id}/entry`).set(client(players[0]!)).expect(200);
      expect(entered.body.entered).to.equal(true);
      expect(await tierOf(id, players[0]!)).to.equal('silver');
    } finally {
      worker = await startWorker();
    }
  });

  it('when Redis loses the board after the moves, then the rebuild gives every player the tier they moved to', async () => {
    const { id, players, board } = await seasonOfFive();
    await reset(id);
    await waitForPersistence(board);
    await boardLosesLiveState(board);
    await testStores().redis.del(testStores().keys(board).tiers);
    expect(await tiersNextSeason(id, players)).to.deep.equal(['silver', 'silver', 'bronze', 'bronze', 'bronze']);
  });

  it('when rewards follow group ranks, then each group’s best earns the top band, in records and claims, live and archived', async () => {
    const bands = [{ rank_from: 1, rank_to: 1, reward: { coins: 100 } }];
    const id = await createLeaderboard(game, {
      groups: LEAGUE,
      rewards: bands,
      rewards_by: 'group_rank',
      closes_at: new Date(Date.now() + 60_000).toISOString(),
    });
    expect((await api().get(`/api/v1/server/leaderboards/${id}`).set(secretKey(game)).expect(200)).body.rewards_by).to.equal('group_rank');
    // Ten players: the first five fill group 1 (scores 100..60), the next five group 2 (scores 5..1).
    const players = await signupMany(game, 10);
    for (const [i, player] of players.entries()) await reportScore(game, player, id, i < 5 ? 100 - 10 * i : 10 - i).expect(200);
    const board = await internalBoard(game, id);
    await closeNow(id);
    const record = (player: TestPlayer, season = '') =>
      api().get(`/api/v1/client/leaderboards/${id}/players/${player.playerId}${season}`).set(secretKey(game)).expect(200);
    const second = (await record(players[5]!)).body;
    expect(second).to.include({ rank: 6, group_id: '2', group_rank: 1 });
    expect(second.reward).to.deep.equal({ coins: 100 });
    expect((await record(players[1]!)).body).to.include({ rank: 2, group_rank: 2, reward: null });
    const claimed = await api()
      .post(`/api/v1/server/leaderboards/${id}/seasons/1/claims/${players[5]!.playerId}`)
      .set(secretKey(game))
      .expect(200);
    expect(claimed.body).to.include({ rank: 1 });
    const refused = await api()
      .post(`/api/v1/server/leaderboards/${id}/seasons/1/claims/${players[1]!.playerId}`)
      .set(secretKey(game))
      .expect(404);
    expect(refused.body.error.code).to.equal('record_not_found');
    // Archived: the season keeps the rule it ended with, and its records their group.
    await reset(id);
    await waitForPersistence(board);
    const archived = (await record(players[0]!, '?season=1')).body;
    expect(archived).to.include({ rank: 1, tier: 'bronze', group_id: '1', group_rank: 1 });
    expect(archived.reward).to.deep.equal({ coins: 100 });
    expect((await record(players[6]!, '?season=1')).body).to.include({ group_rank: 2, reward: null });
    const late = await api()
      .post(`/api/v1/server/leaderboards/${id}/seasons/1/claims/${players[0]!.playerId}`)
      .set(secretKey(game))
      .expect(200);
    expect(late.body).to.include({ rank: 1 });
  });

  it('when a player is erased, then their tier and archived group rows go', async () => {
    const { id, players, board } = await seasonOfFive();
    await reset(id);
    await waitForPersistence(board);
    await api().delete(`/api/v1/server/players/${players[0]!.playerId}`).set(secretKey(game)).expect(204);
    const { pool, redis, keys } = testStores();
    const left = await pool.query(
      'SELECT 1 FROM league_tiers WHERE player_id = $1 UNION ALL SELECT 1 FROM season_group_members WHERE player_id = $1',
      [players[0]!.playerId],
    );
    expect(left.rowCount).to.equal(0);
    expect(await redis.hexists(keys(board).tiers, players[0]!.playerId)).to.equal(0);
    expect(await redis.hget(keys(board).tiers, players[1]!.playerId)).to.equal('1');
  });
});
