import { expect } from 'chai';
import { PNG } from 'pngjs';
import { api } from '../helpers/context.js';
import { createGame, signup, type TestPlayer } from '../helpers/fixtures.js';

const binary = (res: import('superagent').Response, done: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

function getAvatar(playerId: string, query = '') {
  return api()
    .get(`/api/v1/users/${encodeURIComponent(playerId)}/avatar.png${query}`)
    .buffer(true)
    .parse(binary);
}

describe('GET /api/v1/users/:player_id/avatar.png', () => {
  let player: TestPlayer;
  before(async () => {
    player = await signup(await createGame());
  });

  it('when an avatar is asked for, then a 128 px PNG comes with a strong ETag and public caching', async () => {
    const res = await getAvatar(player.playerId).expect(200);
    expect(res.headers['content-type']).to.equal('image/png');
    expect(res.headers.etag).to.match(/^"[^"]+"$/);
    expect(res.headers['cache-control'])
      .to.match(/public/)
      .and.match(/max-age=\d{5,}/);
    const png = PNG.sync.read(res.body as Buffer);
    expect([png.width, png.height]).to.deep.equal([128, 128]);
  });

  it('when a size is given, then the PNG is drawn at the nearest of the fixed sizes (the larger of two equally near)', async () => {
    for (const [asked, drawn] of [
      [16, 16],
      [17, 16],
      [20, 24],
      [64, 64],
      [100, 96],
      [300, 256],
      [330, 384],
      [511, 512],
      [512, 512],
    ]) {
      const res = await getAvatar(player.playerId, `?size=${asked}`).expect(200);
      const png = PNG.sync.read(res.body as Buffer);
      expect([png.width, png.height], `size=${asked}`).to.deep.equal([drawn, drawn]);
    }
  });

  it('when every size from 16 to 512 is asked for, then only the 11 fixed sizes are drawn, each with its own ETag', async () => {
    const other = await signup(await createGame());
    const sizes = Array.from({ length: 497 }, (_, i) => 16 + i);
    const etags = new Map<string, number>();
    for (let i = 0; i < sizes.length; i += 50) {
      const answers = await Promise.all(sizes.slice(i, i + 50).map((size) => getAvatar(other.playerId, `?size=${size}`).expect(200)));
      for (const res of answers) etags.set(res.headers.etag!, PNG.sync.read(res.body as Buffer).width);
    }
    expect([...etags.values()].sort((a, b) => a - b)).to.deep.equal([16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512]);
  });

  it('when an avatar request carries a key or token, then the answer is not cached', async () => {
    const res = await getAvatar(player.playerId).set('Anonymous-Authorization', player.token).expect(200);
    expect(res.headers['cache-control']).to.equal('no-store');
  });

  it('when the same avatar is asked for twice, then the bytes and the ETag are identical', async () => {
    const first = await getAvatar(player.playerId, '?size=64').expect(200);
    const second = await getAvatar(player.playerId, '?size=64').expect(200);
    expect(Buffer.compare(first.body as Buffer, second.body as Buffer)).to.equal(0);
    expect(second.headers.etag).to.equal(first.headers.etag);
  });

  it('when two players are drawn, then their images differ', async () => {
    const other = await signup(await createGame());
    const a = await getAvatar(player.playerId).expect(200);
    const b = await getAvatar(other.playerId).expect(200);
    expect(Buffer.compare(a.body as Buffer, b.body as Buffer)).to.not.equal(0);
    expect(a.headers.etag).to.not.equal(b.headers.etag);
  });

  it('when If-None-Match holds the ETag, then 304 without a body', async () => {
    const first = await getAvatar(player.playerId, '?size=32').expect(200);
    const again = await getAvatar(player.playerId, '?size=32').set('If-None-Match', first.headers.etag!).expect(304);
    expect((again.body as Buffer).length).to.equal(0);
    expect(again.headers.etag).to.equal(first.headers.etag);
    // A size drawn as the same image shares its ETag; another drawn size is another image.
    await getAvatar(player.playerId, '?size=33').set('If-None-Match', first.headers.etag!).expect(304);
    await getAvatar(player.playerId, '?size=48').set('If-None-Match', first.headers.etag!).expect(200);
  });

  it('when the player is unknown, whatever the shape of the id, then 404 player_not_found', async () => {
    for (const id of ['nope', 'a'.repeat(300), 'ünïcødé ✓', 'x.y-z_', '...']) {
      const res = await api()
        .get(`/api/v1/users/${encodeURIComponent(id)}/avatar.png`)
        .expect(404);
      expect(res.body.error.code).to.equal('player_not_found', id);
    }
    // Already percent-encoded: a NUL byte, and a sequence that does not decode at all.
    for (const raw of ['a%00b', '%E0%A4%A']) {
      const res = await api().get(`/api/v1/users/${raw}/avatar.png`).expect(404);
      expect(res.body.error.code).to.equal('player_not_found', raw);
    }
  });

  it('when the size is out of range or not a whole number, then 400 validation_failed', async () => {
    for (const size of ['15', '513', '0', 'abc', '12.5', '-16', '', '1e2']) {
      const res = await api().get(`/api/v1/users/${player.playerId}/avatar.png?size=${size}`).expect(400);
      expect(res.body.error.code).to.equal('validation_failed', size);
      expect(res.body.error.details[0].field).to.equal('size');
    }
  });
});
