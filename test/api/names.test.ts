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
  'A\u200dda', // a zero width joiner between Latin letters, which never join
  'Ad\u200ca', // a zero width non-joiner between Latin letters
  '\u200c', // a non-joiner alone
  '\u200d\u{1F44D}', // a joiner with nothing before it
  '\u{1F44D}\u200d', // a joiner with nothing after it
  '\u{1F44D}\u200d\u200d\u{1F44D}', // two joiners in a row
  '\u0627\u200c\u0627', // a non-joiner after an alef, which joins nothing on that side
];

/**
 * Names people have that need a joiner: U+200C (zero width non-joiner) in Persian and Indic
 * scripts, U+200D (zero width joiner) after an Indic virama and inside emoji sequences.
 */
const JOINED = [
  '\u0645\u0647\u200c\u0644\u0642\u0627', // Persian "Mahlegha": heh, ZWNJ, lam
  '\u0628\u0647\u200c\u0622\u0641\u0631\u06cc\u0646', // Persian "Behafarin": heh, ZWNJ, alef with madda
  '\u0936\u094d\u200d\u092f\u093e\u092e', // Hindi "Shyam": the half form asked for with a ZWJ after the virama
  '\u0932\u0915\u094d\u200c\u0937\u094d\u092e\u0940', // Hindi "Lakshmi", the virama kept visible with a ZWNJ
  '\u0d05\u0d28\u0d3f\u0d32\u0d4d\u200d', // Malayalam "Anil", its chillu written virama + ZWJ
  '\u0d15\u0d3e\u0d30\u0d4d\u200d\u0d24\u0d4d\u0d24\u0d3f\u0d15\u0d4d', // Malayalam "Karthik"
  '\u{1F468}\u200d\u{1F469}\u200d\u{1F467}\u200d\u{1F466}', // family: man, woman, girl, boy
  'Ada \u{1F469}\u{1F3FD}\u200d\u{1F4BB}', // woman technologist: medium skin tone
  '\u{1F3F3}\ufe0f\u200d\u{1F308}', // rainbow flag
  '\u{1F3F4}\u200d\u2620\ufe0f', // pirate flag
  'Zo\u00eb \u2764\ufe0f\u200d\u{1F525}', // heart on fire
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

  it('when a name needs a joiner (Persian, Hindi, Malayalam, emoji sequences), then it is kept as written', async () => {
    for (const name of JOINED) {
      const renamed = await renameSelf(name);
      expect(renamed.status, JSON.stringify(name)).to.equal(200);
      expect(renamed.body.display_name).to.equal(name);
      const clan = await api()
        .put(`/api/v1/server/clans/${uniqueId('clan')}`)
        .set('Secret-Key', game.secretKey)
        .send({ name });
      expect(clan.status, JSON.stringify(name)).to.equal(201);
      expect(clan.body.name).to.equal(name);
    }
  });

  it('when a name mixes scripts, emoji and punctuation, then it is kept as written', async () => {
    for (const name of ['Zoë 🏆', 'Ли Мин', '李小龍', 'محمد', '(-_-)']) {
      expect((await renameSelf(name).expect(200)).body.display_name).to.equal(name);
    }
  });
});
