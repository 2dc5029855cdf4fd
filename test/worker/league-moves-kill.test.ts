import { expect } from 'chai';
import { api, testStores } from '../helpers/context.js';
import { createGame, createLeaderboard, internalBoard, secretKey } from '../helpers/fixtures.js';
import { waitForPersistence } from '../helpers/persistence.js';
import { startWorker } from '../helpers/processes.js';
import { endedSeasonKeys } from '../../engine/live/keys.js';

const GROUPS = 1_000;
const SIZE = 5;
const TIERS = ['bronze', 'silver', 'gold'];

/**
 * A worker SIGKILLed while it applies a large league's moves (docs/competitions.md, part 6): the
 * groups it had moved keep their result, a second worker moves only the others, and every player
 * ends at the tier their group's standings give, moved once; PostgreSQL gets every member once.
 */
describe('league moves: a worker SIGKILLed half way', function () {
  this.timeout(300_000);

  it('when the worker is killed during the moves of 1,000 groups, then a second one finishes them, each group moved exactly once', async () => {
    const game = await createGame();
    const id = await createLeaderboard(game, { groups: { size: SIZE, tiers: TIERS, promote: 1, relegate: 1 } });
    const board = await internalBoard(game, id);
    const { pool, redis, keys, prefix } = testStores();
    // The season as 5,000 first reports would leave it, written straight into its keys: every group
    // in the middle tier, scored 5 (best) to 1 within it, so each group promotes one and relegates one.
    const ids = Array.from({ length: GROUPS * SIZE }, (_, i) => `k${board.internalId}x${i}`);
    await pool.query(`INSERT INTO players (id, game_id, device_id, display_name) SELECT u, $2, u, u FROM unnest($1::text[]) AS u`, [
      ids,
      game.gameId,
    ]);
    const k = keys(board);
    const pipeline = redis.pipeline();
    pipeline.hset(k.groups, 'n', GROUPS);
    for (let g = 1; g <= GROUPS; g++) {
      const members = ids.slice((g - 1) * SIZE, g * SIZE);
      pipeline.hset(k.groups, String(g), `1:${SIZE}`, `m${g}`, members.join(' '));
      pipeline.zadd(k.scores, ...members.flatMap((member, i) => [SIZE - i, member]));
      for (const member of members) pipeline.hset(k.tiers, member, 1);
    }
    await pipeline.exec();

    const ended = endedSeasonKeys(prefix, board.internalId, 1).groups;
    const moved = async () => (await redis.hkeys(ended)).filter((field) => field.startsWith('r')).length;
    const first = await startWorker();
    await api().post(`/api/v1/server/leaderboards/${id}/reset`).set(secretKey(game)).expect(200);
    // Killed as soon as some groups have moved.
    let before = 0;
    for (let i = 0; i < 10_000 && before === 0; i++) before = await moved();
    first.child.kill('SIGKILL');
    await new Promise((resolve) => (first.child.exitCode !== null ? resolve(null) : first.child.once('exit', resolve)));
    const atKill = await moved();
    expect(atKill, 'groups moved when the worker died').to.be.within(1, GROUPS - 1);
    // Nobody joins the next season at a stale tier while some group has not moved.
    expect(await redis.hget(k.tiers, ':moves')).to.equal('1');

    const second = await startWorker();
    try {
      await waitForPersistence(board, 120_000);
    } finally {
      await second.stop();
    }
    expect(await redis.hget(k.tiers, ':moves')).to.equal(null);
    // Every group's best moved up once, its worst down once, the rest stayed.
    const tiers = await redis.hgetall(k.tiers);
    const expected = Object.fromEntries(
      ids.map((member, i) => [member, String({ 0: 2, 4: 0 }[i % SIZE] ?? 1)]).filter(([, tier]) => tier !== '0'),
    );
    expect(tiers).to.deep.equal(expected);
    const { rows } = await pool.query<{ members: number; moved: number; distinct_players: number }>(
      `SELECT count(*)::int AS members, count(*) FILTER (WHERE moved_to <> tier)::int AS moved, count(DISTINCT player_id)::int AS distinct_players
       FROM season_group_members WHERE leaderboard_internal_id = $1 AND season = 1`,
      [board.internalId],
    );
    expect(rows[0]).to.deep.equal({ members: GROUPS * SIZE, moved: 2 * GROUPS, distinct_players: GROUPS * SIZE });
    const persisted = await pool.query('SELECT count(*)::int AS count FROM league_tiers WHERE leaderboard_internal_id = $1', [
      board.internalId,
    ]);
    expect(persisted.rows[0].count).to.equal(2 * GROUPS);
  });
});
