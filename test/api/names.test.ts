import { expect } from 'chai';
import { api } from '../helpers/context.js';
import {
  ADMIN,
  createGame,
  createLeaderboard,
  reportScore,
  signup,
  uniqueId,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';

/** Names that could pass for another (hidden characters) or show nothing at all. */
const IMPERSONATING = [
  '\u200b', // zero-width space alone
  'Ada\u200b', // zero-width space after a real name
  'Ada\u200d', // zero-width joiner
  'Ada\u2060', // word joiner
  '\u202eadA', // right-to-left override
  'Ad\u2066a', // left-to-right isolate
  'Ada\u00ad', // soft hyphen
  '\u3164', // Hangul filler: a letter that draws nothing
  '\u0301', // a combining mark with nothing to combine with
];

describe('names people read', () => {
  let game: TestGame;
  let player: TestPlayer;
  before(async () => {
    game = await createGame();
    player = await signup(game);
  });

  const renameSelf = (display_name: string) =>
    api()
      .patch('/api/v1/client/players/me')
      .set('Publishable-Key', game.publishableKey)
      .set('Anonymous-Authorization', player.token)
      .send({ display_name });

  it('when a display name holds format characters or nothing visible, then 400 validation_failed and the name stays', async () => {
    await renameSelf('Ada').expect(200);
    for (const name of IMPERSONATING) {
      const res = await renameSelf(name).expect(400);
      expect(res.body.error.code, JSON.stringify(name)).to.equal('validation_failed');
      expect(res.body.error.details[0].field).to.equal('display_name');
      const byServer = await api()
        .patch(`/api/v1/server/players/${player.playerId}`)
        .set('Secret-Key', game.secretKey)
        .send({ display_name: name })
        .expect(400);
      expect(byServer.body.error.code, JSON.stringify(name)).to.equal('validation_failed');
    }
    const board = await createLeaderboard(game);
    await reportScore(game, player, board, 1).expect(200);
    const record = await api()
      .get(`/api/v1/client/leaderboards/${board}/players/${player.playerId}`)
      .set('Secret-Key', game.secretKey)
      .expect(200);
    expect(record.body.display_name).to.equal('Ada');
  });

  it('when a clan or leaderboard name holds format characters or nothing visible, then 400 validation_failed and nothing is created', async () => {
    for (const name of IMPERSONATING) {
      const clan = uniqueId('clan');
      const clanRes = await api().put(`/api/v1/server/clans/${clan}`).set('Secret-Key', game.secretKey).send({ name }).expect(400);
      expect(clanRes.body.error.code, JSON.stringify(name)).to.equal('validation_failed');
      const board = uniqueId('lb');
      const boardRes = await api().put(`/api/v1/server/leaderboards/${board}`).set('Secret-Key', game.secretKey).send({ name }).expect(400);
      expect(boardRes.body.error.code, JSON.stringify(name)).to.equal('validation_failed');
      await api().delete(`/api/v1/server/leaderboards/${board}`).set('Secret-Key', game.secretKey).expect(404);
      await api().delete(`/api/v1/server/clans/${clan}`).set('Secret-Key', game.secretKey).expect(404);
    }
  });

  it('when a name or an alias id holds an unpaired surrogate, then 400 validation_failed and nothing is created or recorded', async () => {
    // JSON may escape half of an emoji ("\\ud83d"): UTF-8 cannot carry it, nor can the audit log's JSON.
    const broken = JSON.parse('"Ada \\ud83d!"') as string;
    const created = await api().post('/api/v1/admin/games').set(ADMIN).send({ name: broken }).expect(400);
    expect(created.body.error.details[0]).to.deep.include({ field: 'name' });
    expect((await renameSelf(broken).expect(400)).body.error.code).to.equal('validation_failed');
    const alias = await api()
      .patch(`/api/v1/server/players/${player.playerId}`)
      .set('Secret-Key', game.secretKey)
      .send({ aliases: { steam: broken } })
      .expect(400);
    expect(alias.body.error.details[0].message).to.match(/unpaired surrogate/);
    const board = uniqueId('lb');
    await api().put(`/api/v1/server/leaderboards/${board}`).set('Secret-Key', game.secretKey).send({ name: broken }).expect(400);
    const log = await api().get('/api/v1/server/audit_log').set('Secret-Key', game.secretKey).expect(200);
    expect(log.body.entries.filter((e: { target: string }) => e.target === board || e.target === player.playerId)).to.deep.equal([]);
    // A whole emoji (a surrogate pair) is a name like any other.
    await renameSelf('Ada \u{1F600}').expect(200);
  });

  it('when a name is written with a combining accent, then it is stored in its composed (NFC) form', async () => {
    const decomposed = 'Cafe\u0301'; // "Café" as e + combining acute
    const renamed = await renameSelf(decomposed).expect(200);
    expect(renamed.body.display_name).to.equal('Caf\u00e9');
    const clan = await api()
      .put(`/api/v1/server/clans/${uniqueId('clan')}`)
      .set('Secret-Key', game.secretKey)
      .send({ name: decomposed })
      .expect(201);
    expect(clan.body.name).to.equal('Caf\u00e9');
    const board = await api()
      .put(`/api/v1/server/leaderboards/${uniqueId('lb')}`)
      .set('Secret-Key', game.secretKey)
      .send({ name: decomposed })
      .expect(201);
    expect(board.body.name).to.equal('Caf\u00e9');
  });

  it('when a name mixes scripts, emoji and punctuation, then it is kept as written', async () => {
    for (const name of ['Zoë 🏆', 'Ли Мин', '李小龍', 'محمد', '(-_-)']) {
      expect((await renameSelf(name).expect(200)).body.display_name).to.equal(name);
    }
  });
});
