import { expect } from 'chai';
import { api, testEngine, testStores } from '../helpers/context.js';
import { createGame, secretKey, uniqueId } from '../helpers/fixtures.js';

describe('creating a leaderboard (create-only, as the dashboard does)', () => {
  it('when the same id is created twice at once, then one is created and the other is 409 already_exists, audited once', async () => {
    const game = await createGame();
    const id = uniqueId('race');
    const attempts = await Promise.allSettled(
      ['First', 'Second'].map((name) => testEngine().leaderboards.create(game.gameId, id, { name }, 'dashboard')),
    );
    const created = attempts.filter((attempt) => attempt.status === 'fulfilled');
    const refused = attempts.filter((attempt): attempt is PromiseRejectedResult => attempt.status === 'rejected');
    expect(created).to.have.length(1);
    expect(refused).to.have.length(1);
    expect(refused[0]!.reason).to.include({ code: 'already_exists' });
    const board = await api().get(`/api/v1/server/leaderboards/${id}`).set(secretKey(game)).expect(200);
    expect(board.body.name).to.equal((created[0] as PromiseFulfilledResult<{ name: string }>).value.name);
    const { rows } = await testStores().pool.query(
      "SELECT 1 FROM audit_log WHERE game_id = $1 AND target = $2 AND action = 'leaderboard.create'",
      [game.gameId, id],
    );
    expect(rows).to.have.length(1);
  });

  it('when the id is already in use, then 409 already_exists and its settings stay as they were', async () => {
    const game = await createGame();
    const id = uniqueId('taken');
    await api().put(`/api/v1/server/leaderboards/${id}`).set(secretKey(game)).send({ name: 'Kept', sort_order: 'asc' }).expect(201);
    const refused = await testEngine()
      .leaderboards.create(game.gameId, id, { name: 'Replaced', sortOrder: 'desc' }, 'dashboard')
      .catch((error: unknown) => error);
    expect(refused).to.include({ code: 'already_exists' });
    const board = await api().get(`/api/v1/server/leaderboards/${id}`).set(secretKey(game)).expect(200);
    expect(board.body).to.include({ name: 'Kept', sort_order: 'asc' });
  });
});
