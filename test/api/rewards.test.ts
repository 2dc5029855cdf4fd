import { expect } from 'chai';
import { api, testStores } from '../helpers/context.js';
import {
  createGame,
  createLeaderboard,
  internalBoard,
  reportScore,
  reportScores,
  secretKey,
  signup,
  signupMany,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';
import { waitForPersistence } from '../helpers/persistence.js';
import { startWorker, type ServiceProcess } from '../helpers/processes.js';

const iso = (ms: number) => new Date(ms).toISOString();
const BANDS = [
  { rank_from: 1, rank_to: 1, reward: { coins: 1000, badge: 'gold' } },
  { rank_from: 2, rank_to: 3, reward: { coins: 500 } },
];

/**
 * Rewards: bands of ranks earn rewards once a season has closed or ended, and a player claims theirs
 * exactly once (docs/competitions.md, part 4).
 */
describe('competitions: rewards and their claims', () => {
  let game: TestGame;
  let worker: ServiceProcess;
  before(async () => {
    worker = await startWorker();
    game = await createGame();
  });
  after(async () => {
    await worker.stop();
  });

  const put = (id: string, body: Record<string, unknown>) => api().put(`/api/v1/server/leaderboards/${id}`).set(secretKey(game)).send(body);
  const record = (id: string, player: TestPlayer, season?: number) =>
    api()
      .get(`/api/v1/client/leaderboards/${id}/players/${player.playerId}${season ? `?season=${season}` : ''}`)
      .set(secretKey(game));
  const clientClaim = (id: string, season: number, player: TestPlayer) =>
    api()
      .post(`/api/v1/client/leaderboards/${id}/seasons/${season}/claim`)
      .set('Publishable-Key', game.publishableKey)
      .set('Anonymous-Authorization', player.token);
  const serverClaim = (id: string, season: number, player: TestPlayer) =>
    api().post(`/api/v1/server/leaderboards/${id}/seasons/${season}/claims/${player.playerId}`).set(secretKey(game));
  const close = (id: string) => put(id, { closes_at: iso(Date.now() - 1) }).expect(200);

  /** A board with the bands and four players at 40, 30, 30 and 10, open until closed. */
  async function tournament(): Promise<{ id: string; players: TestPlayer[] }> {
    const id = await createLeaderboard(game, { rewards: BANDS, closes_at: iso(Date.now() + 3_600_000) });
    const players = await signupMany(game, 4);
    await reportScores(game, id, [
      [players[0]!, 40],
      [players[1]!, 30],
      [players[2]!, 30],
      [players[3]!, 10],
    ]);
    return { id, players };
  }

  it('when a season is open, then records carry no reward and claims are 409 conflict', async () => {
    const { id, players } = await tournament();
    const open = await record(id, players[0]!).expect(200);
    expect(open.body).to.not.have.any.keys('reward', 'reward_claimed_at');
    expect((await clientClaim(id, 1, players[0]!).expect(409)).body.error.code).to.equal('conflict');
    expect((await api().get(`/api/v1/server/leaderboards/${id}`).set(secretKey(game)).expect(200)).body.rewards).to.deep.equal(BANDS);
  });

  it('when the season has closed, then each record carries the reward of its rank (tied players share a band), and a claim freezes it once', async () => {
    const { id, players } = await tournament();
    await close(id);
    const rewards = await Promise.all(players.map(async (player) => (await record(id, player).expect(200)).body));
    expect(rewards.map((r) => [r.rank, r.reward, r.reward_claimed_at])).to.deep.equal([
      [1, BANDS[0]!.reward, null],
      [2, BANDS[1]!.reward, null],
      [2, BANDS[1]!.reward, null],
      [4, null, null],
    ]);
    const claimed = await clientClaim(id, 1, players[1]!).expect(200);
    expect(claimed.body).to.deep.include({
      leaderboard_id: id,
      season: 1,
      player_id: players[1]!.playerId,
      rank: 2,
      reward: BANDS[1]!.reward,
    });
    const again = await clientClaim(id, 1, players[1]!).expect(409);
    expect(again.body.error.code).to.equal('already_claimed');
    expect(again.body.error.details).to.deep.equal([{ field: 'claimed_at', message: claimed.body.claimed_at }]);
    expect((await record(id, players[1]!).expect(200)).body).to.include({ reward_claimed_at: claimed.body.claimed_at });
    // Without a reward for the rank: 404 record_not_found; the rewards of a closed season no longer change.
    expect((await clientClaim(id, 1, players[3]!).expect(404)).body.error.code).to.equal('record_not_found');
    expect((await put(id, { rewards: [] }).expect(409)).body.error.code).to.equal('conflict');
  });

  it('when a player with a claimed reward and a held score is erased, then PostgreSQL keeps neither their claim nor their reviews', async () => {
    const id = await createLeaderboard(game, { rewards: BANDS, closes_at: iso(Date.now() + 3_600_000), review: { above: 1000 } });
    const [leaving, staying] = await signupMany(game, 2);
    await reportScores(game, id, [
      [leaving!, 40],
      [staying!, 30],
    ]);
    await reportScore(game, leaving!, id, 5000).expect(200);
    await close(id);
    await clientClaim(id, 1, leaving!).expect(200);
    await clientClaim(id, 1, staying!).expect(200);
    const { pool } = testStores();
    const rowsOf = async (table: 'reviews' | 'reward_claims') =>
      (
        await pool.query(`SELECT player_id FROM ${table} WHERE leaderboard_internal_id = $1`, [(await internalBoard(game, id)).internalId])
      ).rows.map((row: { player_id: string }) => row.player_id);
    expect(await rowsOf('reviews')).to.deep.equal([leaving!.playerId]);

    await api().delete(`/api/v1/server/players/${leaving!.playerId}`).set(secretKey(game)).expect(204);
    expect(await rowsOf('reviews')).to.deep.equal([]);
    expect(await rowsOf('reward_claims')).to.deep.equal([staying!.playerId]);
  });

  it('when 20 claims of one reward race, then exactly one succeeds and the others answer its time', async () => {
    const { id, players } = await tournament();
    await close(id);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? clientClaim : serverClaim)(id, 1, players[0]!)));
    const won = answers.filter((res) => res.status === 200);
    expect(won).to.have.length(1);
    const lost = answers.filter((res) => res.status !== 200);
    expect(lost.map((res) => [res.status, res.body.error.code, res.body.error.details[0].message])).to.deep.equal(
      Array.from({ length: 19 }, () => [409, 'already_claimed', won[0]!.body.claimed_at]),
    );
    const { pool } = testStores();
    const board = await internalBoard(game, id);
    const rows = await pool.query('SELECT rank, reward FROM reward_claims WHERE leaderboard_internal_id = $1', [board.internalId]);
    expect(rows.rows).to.deep.equal([{ rank: 1, reward: BANDS[0]!.reward }]);
  });

  it('when a claimed reward is followed by a ban above, then the claim stays as it was while unclaimed rewards follow the ranks', async () => {
    const { id, players } = await tournament();
    await close(id);
    await clientClaim(id, 1, players[1]!).expect(200);
    await api().post(`/api/v1/server/players/${players[0]!.playerId}/ban`).set(secretKey(game)).send({}).expect(200);
    // players[1] and [2] now rank 1: the unclaimed one moves to the first band, the claimed one keeps theirs.
    expect((await record(id, players[2]!).expect(200)).body).to.include({ rank: 1 });
    expect((await record(id, players[2]!).expect(200)).body.reward).to.deep.equal(BANDS[0]!.reward);
    expect((await record(id, players[1]!).expect(200)).body.reward).to.deep.equal(BANDS[1]!.reward);
    // A banned player's claim is refused, by the client and the server alike.
    expect((await serverClaim(id, 1, players[0]!).expect(403)).body.error.code).to.equal('player_banned');
  });

  it('when a shadow-banned player claims, then they are answered as one without a reward (404), and the game server is told (403)', async () => {
    const { id, players } = await tournament();
    await close(id);
    await api().post(`/api/v1/server/players/${players[0]!.playerId}/ban`).set(secretKey(game)).send({ shadow: true }).expect(200);
    expect((await clientClaim(id, 1, players[0]!).expect(404)).body.error.code).to.equal('record_not_found');
    expect((await serverClaim(id, 1, players[0]!).expect(403)).body.error.code).to.equal('player_banned');
    // Nothing was claimed: the player below takes the first band.
    expect((await record(id, players[1]!).expect(200)).body).to.include({ rank: 1 });
    expect((await clientClaim(id, 1, players[1]!).expect(200)).body.reward).to.deep.equal(BANDS[0]!.reward);
  });

  it('when a season has ended by a reset and been archived, then its claims read the bands it ended with, and the server claim is audited', async () => {
    const id = await createLeaderboard(game, { rewards: BANDS });
    const [first, second] = await signupMany(game, 2);
    await reportScores(game, id, [
      [first!, 20],
      [second!, 10],
    ]);
    await api().post(`/api/v1/server/leaderboards/${id}/reset`).set(secretKey(game)).expect(200);
    await waitForPersistence(await internalBoard(game, id));
    // The next season's bands change; season 1 keeps its own.
    await put(id, { rewards: [{ rank_from: 1, rank_to: 2, reward: { coins: 1 } }] }).expect(200);
    expect((await record(id, second!, 1).expect(200)).body).to.include({ rank: 2 });
    expect((await record(id, second!, 1).expect(200)).body.reward).to.deep.equal(BANDS[1]!.reward);
    const claimed = await serverClaim(id, 1, second!).expect(200);
    expect(claimed.body).to.deep.include({ season: 1, rank: 2, reward: BANDS[1]!.reward });
    const audit = await api().get('/api/v1/server/audit_log').set(secretKey(game)).expect(200);
    const entry = audit.body.entries.find(
      (e: { action: string; target: string }) => e.action === 'player.claim' && e.target === second!.playerId,
    );
    expect(entry.details).to.deep.equal({ leaderboard_id: id, season: 1, rank: 2, reward: BANDS[1]!.reward });
    // The current season is open: its claims wait; a season not reached yet is 404.
    await reportScore(game, first!, id, 5).expect(200);
    expect((await clientClaim(id, 2, first!).expect(409)).body.error.code).to.equal('conflict');
    expect((await clientClaim(id, 3, first!).expect(404)).body.error.code).to.equal('season_not_found');
  });

  it('when a player without a score claims, or bands are invalid, then 404 and 400, and nothing changes', async () => {
    const { id } = await tournament();
    await close(id);
    const newcomer = await signup(game);
    expect((await clientClaim(id, 1, newcomer).expect(404)).body.error.code).to.equal('record_not_found');
    const other = await createLeaderboard(game);
    for (const [rewards, field] of [
      [[BANDS[0], { rank_from: 1, rank_to: 5, reward: {} }], 'rewards[1]'],
      [[{ rank_from: 3, rank_to: 2, reward: {} }], 'rewards[0]'],
      [Array.from({ length: 51 }, (_, i) => ({ rank_from: i + 1, rank_to: i + 1, reward: {} })), 'rewards'],
      [[{ rank_from: 1, rank_to: 1, reward: { text: 'x'.repeat(1100) } }], 'rewards[0].reward'],
      [[{ rank_from: 0, rank_to: 1, reward: {} }], 'rewards[0].rank_from'],
    ] as const) {
      const res = await put(other, { rewards }).expect(400);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).to.include(field);
    }
    // Bands read the board's rank; group ranks need a league's groups.
    expect((await put(other, { rewards_by: 'group_rank' }).expect(400)).body.error.details[0].field).to.equal('rewards_by');
    await put(other, { rewards_by: 'rank' }).expect(200);
    expect((await api().get(`/api/v1/server/leaderboards/${other}`).set(secretKey(game)).expect(200)).body).to.deep.include({
      rewards: [],
      rewards_by: 'rank',
    });
  });
});
