import { expect } from 'chai';
import { api, testEngine, testStores } from '../helpers/context.js';
import {
  ADMIN,
  createClan,
  createGame,
  createLeaderboard,
  createThirdPartyKey,
  internalBoard,
  secretKey,
  serverReport,
  signup,
  uniqueId,
  type TestGame,
} from '../helpers/fixtures.js';
import { scheduledResetAt, waitForPersistence } from '../helpers/persistence.js';
import { startWorker, until } from '../helpers/processes.js';

interface Entry {
  id: number;
  at: string;
  actor: string;
  action: string;
  target: string;
  details: Record<string, unknown>;
}

async function auditLog(
  game: TestGame,
  query: Record<string, string | number> = {},
): Promise<{ entries: Entry[]; next_before: number | null }> {
  const res = await api().get('/api/v1/server/audit_log').query(query).set(secretKey(game)).expect(200);
  return res.body;
}

/** actor, action and target of each entry, newest first: what an operator reads first. */
const summary = (entries: Entry[]) => entries.map((entry) => [entry.actor, entry.action, entry.target]);

async function rotateSecretKey(game: TestGame): Promise<string> {
  const res = await api().post(`/api/v1/admin/games/${game.gameId}/secret_key`).set(ADMIN).expect(200);
  return res.body.secret_key;
}

describe('audit log', () => {
  it('when every audited kind of change is made, then each is recorded once, newest first, with its actor, target and details', async () => {
    const game = await createGame('Audited');
    const board = await createLeaderboard(game, { keep_seasons: 5 });
    await api().put(`/api/v1/server/leaderboards/${board}`).set(secretKey(game)).send({ name: 'Weekly', keep_seasons: 10 }).expect(200);
    await api().post(`/api/v1/server/leaderboards/${board}/reset`).set(secretKey(game)).expect(200);
    const clan = await createClan(game);
    await api().put(`/api/v1/server/clans/${clan}`).set(secretKey(game)).send({ name: 'Renamed' }).expect(200);
    const player = await signup(game);
    await api()
      .patch(`/api/v1/server/players/${player.playerId}`)
      .set(secretKey(game))
      .send({ display_name: 'Ada', clan_id: clan, aliases: { steam: uniqueId('steam') } })
      .expect(200);
    await serverReport(game, player.playerId, [100], [board]); // score reports are not audited
    const key = await createThirdPartyKey(game, 'Discord bot');
    await api().delete(`/api/v1/server/third_party_keys/${key.keyId}`).set(secretKey(game)).expect(204);
    await api().delete(`/api/v1/server/clans/${clan}`).set(secretKey(game)).expect(204);
    await api().delete(`/api/v1/server/leaderboards/${board}`).set(secretKey(game)).expect(204);
    game.secretKey = await rotateSecretKey(game);

    const { entries, next_before } = await auditLog(game);

    expect(summary(entries)).to.deep.equal([
      ['admin', 'game.rotate_secret_key', game.gameId],
      ['secret_key', 'leaderboard.delete', board],
      ['secret_key', 'clan.delete', clan],
      ['secret_key', 'third_party_key.revoke', key.keyId],
      ['secret_key', 'third_party_key.create', key.keyId],
      ['secret_key', 'player.update', player.playerId],
      ['secret_key', 'clan.update', clan],
      ['secret_key', 'clan.create', clan],
      ['secret_key', 'leaderboard.reset', board],
      ['secret_key', 'leaderboard.update', board],
      ['secret_key', 'leaderboard.create', board],
      ['admin', 'game.create', game.gameId],
    ]);
    expect(next_before).to.equal(null);
    const ids = entries.map((entry) => entry.id);
    expect(ids).to.deep.equal([...ids].sort((a, b) => b - a));
    const byAction = new Map(entries.map((entry) => [entry.action, entry.details]));
    expect(byAction.get('game.create')).to.deep.equal({ name: 'Audited' });
    expect(byAction.get('leaderboard.create')).to.include({ name: board, keep_seasons: 5, update_strategy: 'best' });
    expect(byAction.get('leaderboard.update')).to.deep.equal({ name: 'Weekly', keep_seasons: 10 });
    expect(byAction.get('leaderboard.reset')).to.deep.equal({ archived_season: 1, season: 2 });
    expect(byAction.get('clan.update')).to.deep.equal({ name: 'Renamed' });
    expect(byAction.get('player.update')).to.have.all.keys('display_name', 'clan_id', 'aliases');
    expect(byAction.get('player.update')).to.include({ display_name: 'Ada', clan_id: clan });
    expect(byAction.get('third_party_key.create')).to.deep.equal({ name: 'Discord bot' });
  });

  it("when two games make changes, then each game's log holds only its own entries", async () => {
    const [first, second] = [await createGame(), await createGame()];
    const firstBoard = await createLeaderboard(first);
    const secondBoard = await createLeaderboard(second);

    expect(summary((await auditLog(first)).entries)).to.deep.equal([
      ['secret_key', 'leaderboard.create', firstBoard],
      ['admin', 'game.create', first.gameId],
    ]);
    expect(summary((await auditLog(second)).entries)).to.deep.equal([
      ['secret_key', 'leaderboard.create', secondBoard],
      ['admin', 'game.create', second.gameId],
    ]);
  });

  it('when a third-party key is created and the secret key rotated, then no entry holds any key', async () => {
    const game = await createGame();
    const oldSecret = game.secretKey;
    const { apiKey } = await createThirdPartyKey(game, 'Stats site');
    game.secretKey = await rotateSecretKey(game);

    const served = JSON.stringify(await auditLog(game));
    const { rows } = await testStores().pool.query('SELECT * FROM audit_log WHERE game_id = $1', [game.gameId]);
    const stored = JSON.stringify(rows);

    expect(served).to.include('third_party_key.create').and.include('game.rotate_secret_key');
    for (const secret of [apiKey, oldSecret, game.secretKey, game.publishableKey]) {
      expect(served).not.to.include(secret);
      expect(stored).not.to.include(secret);
    }
  });

  it('when a player is renamed, given aliases, banned with a reason naming them and erased, then the log keeps their id but none of that', async () => {
    const game = await createGame();
    const clan = await createClan(game);
    const [erased, other] = [await signup(game), await signup(game)];
    const personal = ['Ada Lovelace', `ada-${erased.playerId}@example.com`, `ada#${erased.playerId}`];
    await api()
      .patch(`/api/v1/server/players/${erased.playerId}`)
      .set(secretKey(game))
      .send({ display_name: 'Ada Lovelace', clan_id: clan, aliases: { email: personal[1], discord: personal[2] } })
      .expect(200);
    const reason = `Ada Lovelace (${personal[1]}) shared a cheat on Discord as ${personal[2]}`;
    await api().post(`/api/v1/server/players/${erased.playerId}/ban`).set(secretKey(game)).send({ reason }).expect(200);
    await api().patch(`/api/v1/server/players/${other.playerId}`).set(secretKey(game)).send({ display_name: 'Grace' }).expect(200);

    await api().delete(`/api/v1/server/players/${erased.playerId}`).set(secretKey(game)).expect(204);

    const { entries } = await auditLog(game);
    const { rows } = await testStores().pool.query('SELECT * FROM audit_log WHERE game_id = $1', [game.gameId]);
    for (const text of [JSON.stringify(entries), JSON.stringify(rows)]) {
      for (const data of [...personal, reason]) expect(text).not.to.include(data);
    }
    const about = (playerId: string) =>
      entries.filter((entry) => entry.target === playerId).map(({ actor, action, details }) => ({ actor, action, details }));
    expect(about(erased.playerId)).to.deep.equal([
      { actor: 'secret_key', action: 'player.delete', details: {} },
      { actor: 'secret_key', action: 'player.ban', details: {} },
      { actor: 'secret_key', action: 'player.update', details: {} },
    ]);
    // Only the erased player's entries change.
    expect(about(other.playerId)).to.deep.equal([{ actor: 'secret_key', action: 'player.update', details: { display_name: 'Grace' } }]);
  });

  it('when the log is longer than a page, then before/next_before walk it newest first, without repeats and without an empty last page', async () => {
    const game = await createGame();
    for (let i = 0; i < 7; i++) await createClan(game, `clan-${i}`);
    const whole = (await auditLog(game)).entries;
    expect(whole).to.have.length(8);

    const pages: Entry[][] = [];
    let before: number | null | undefined;
    do {
      const page = await auditLog(game, { limit: 3, ...(before != null && { before }) });
      pages.push(page.entries);
      before = page.next_before;
      if (before !== null) expect(before).to.equal(page.entries[page.entries.length - 1]!.id);
    } while (before !== null);

    expect(pages.map((page) => page.length)).to.deep.equal([3, 3, 2]);
    expect(pages.flat()).to.deep.equal(whole);
    // A page ending exactly at the oldest entry says so: no request for an empty page.
    const first = await auditLog(game, { limit: 4 });
    const last = await auditLog(game, { limit: 4, before: first.next_before! });
    expect(last.entries).to.have.length(4);
    expect(last.next_before).to.equal(null);
  });

  it('when before is not an entry id, then the read is 400 validation_failed', async () => {
    const game = await createGame();
    for (const before of ['abc', '-1', '1.5', '0', '']) {
      const res = await api().get('/api/v1/server/audit_log').query({ before }).set(secretKey(game)).expect(400);
      expect(res.body.error.code, `before=${before}`).to.equal('validation_failed');
    }
  });

  it('when a change is refused (400, 404, 409) or changes nothing, then nothing is recorded', async () => {
    const game = await createGame();
    const board = await createLeaderboard(game);
    const [player, other] = [await signup(game), await signup(game)];
    const alias = uniqueId('steam');
    await api()
      .patch(`/api/v1/server/players/${other.playerId}`)
      .set(secretKey(game))
      .send({ aliases: { steam: alias } });
    await serverReport(game, player.playerId, [5], [board]);
    const before = (await auditLog(game)).entries;

    const put = (id: string, body: object) => api().put(`/api/v1/server/leaderboards/${id}`).set(secretKey(game)).send(body);
    await put(board, { reset_schedule: { cron: 'not a cron', timezone: 'UTC' } }).expect(400);
    await put(board, { type: 'clan' }).expect(409); // scores exist
    await put(board, {}).expect(200); // nothing changes
    await api()
      .delete(`/api/v1/server/leaderboards/${uniqueId('lb')}`)
      .set(secretKey(game))
      .expect(404);
    await api()
      .post(`/api/v1/server/leaderboards/${uniqueId('lb')}/reset`)
      .set(secretKey(game))
      .expect(404);
    await api()
      .delete(`/api/v1/server/clans/${uniqueId('clan')}`)
      .set(secretKey(game))
      .expect(404);
    await api()
      .patch(`/api/v1/server/players/${uniqueId('p')}`)
      .set(secretKey(game))
      .send({ display_name: 'X' })
      .expect(404);
    await api()
      .patch(`/api/v1/server/players/${player.playerId}`)
      .set(secretKey(game))
      .send({ clan_id: uniqueId('clan') })
      .expect(404);
    // The name is written before the alias is found taken: the whole transaction, entry included, rolls back.
    await api()
      .patch(`/api/v1/server/players/${player.playerId}`)
      .set(secretKey(game))
      .send({ display_name: 'Taken', aliases: { steam: alias } })
      .expect(409);
    await api()
      .delete(`/api/v1/server/third_party_keys/${uniqueId('key')}`)
      .set(secretKey(game))
      .expect(404);

    expect((await auditLog(game)).entries).to.deep.equal(before);
  });

  it('when a third-party key is revoked twice, then one revocation is recorded', async () => {
    const game = await createGame();
    const { keyId } = await createThirdPartyKey(game);
    await api().delete(`/api/v1/server/third_party_keys/${keyId}`).set(secretKey(game)).expect(204);
    await api().delete(`/api/v1/server/third_party_keys/${keyId}`).set(secretKey(game)).expect(204);

    const actions = (await auditLog(game)).entries.map((entry) => entry.action);
    expect(actions.filter((action) => action === 'third_party_key.revoke')).to.have.length(1);
  });

  it('when a scheduled reset comes due, then it is recorded once with the actor system', async () => {
    const game = await createGame();
    const board = await createLeaderboard(game, { reset_schedule: { cron: '0 0 1 1 *', timezone: 'UTC' } });
    const internal = await internalBoard(game, board);
    await scheduledResetAt(internal, Date.now());

    expect(await testEngine().seasons.runDueResets()).to.equal(1);
    expect(await testEngine().seasons.runDueResets(), 'done already: not again').to.equal(0);

    const resets = async () => (await auditLog(game)).entries.filter((entry) => entry.action === 'leaderboard.reset');
    await until(async () => (await resets()).length > 0, 'the reset to be recorded');
    expect((await resets()).map((entry) => [entry.actor, entry.target, entry.details])).to.deep.equal([
      ['system', board, { archived_season: 1, season: 2 }],
    ]);
  });

  it('when the worker archives a reset, then a reset PostgreSQL already recorded stays recorded once, and one it missed is recorded as system', async function () {
    this.timeout(60_000);
    const game = await createGame();
    const recorded = await createLeaderboard(game);
    const missed = await createLeaderboard(game);
    const player = await signup(game);
    await serverReport(game, player.playerId, [10, 10], [recorded, missed]);
    for (const board of [recorded, missed]) {
      await api().post(`/api/v1/server/leaderboards/${board}/reset`).set(secretKey(game)).expect(200);
    }
    // PostgreSQL as if it had been down at the second reset: neither the new season nor its entry.
    const missedBoard = await internalBoard(game, missed);
    await testStores().pool.query("DELETE FROM audit_log WHERE game_id = $1 AND target = $2 AND action = 'leaderboard.reset'", [
      game.gameId,
      missed,
    ]);
    await testStores().pool.query('UPDATE leaderboards SET season = 1 WHERE internal_id = $1', [missedBoard.internalId]);

    const worker = await startWorker();
    try {
      await waitForPersistence(await internalBoard(game, recorded));
      await waitForPersistence(missedBoard);
    } finally {
      await worker.stop();
    }

    const resets = (await auditLog(game)).entries.filter((entry) => entry.action === 'leaderboard.reset');
    expect(resets.map((entry) => [entry.actor, entry.target, entry.details])).to.have.deep.members([
      ['secret_key', recorded, { archived_season: 1, season: 2 }],
      ['system', missed, { archived_season: 1, season: 2 }],
    ]);
  });

  it('when retention prunes, then entries older than AUDIT_RETENTION_DAYS go and newer ones stay', async () => {
    const game = await createGame();
    const [old, recent] = [await createClan(game), await createClan(game)];
    const { pool } = testStores();
    const age = (target: string, days: number) =>
      pool.query(`UPDATE audit_log SET at = now() - make_interval(days => $3) WHERE game_id = $1 AND target = $2`, [
        game.gameId,
        target,
        days,
      ]);
    const retention = testEngine().config.auditRetentionDays;
    await age(old, retention + 1);
    await age(recent, retention - 1);

    expect(await testEngine().maintenance.pruneAuditLog()).to.be.at.least(1);

    expect(summary((await auditLog(game)).entries)).to.deep.equal([
      ['secret_key', 'clan.create', recent],
      ['admin', 'game.create', game.gameId],
    ]);
  });
});
