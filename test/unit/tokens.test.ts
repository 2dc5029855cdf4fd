import { expect } from 'chai';
import { AppError } from '../../engine/errors.js';
import { TokenCodec } from '../../engine/tokens.js';

const SECRET = 'a-token-secret-0123456789';
const NOW = Date.UTC(2025, 0, 1);

/** The error code a verification throws, or 'valid'. */
function outcome(codec: TokenCodec, token: string, now = NOW): string {
  try {
    codec.verify(token, now);
    return 'valid';
  } catch (error) {
    return error instanceof AppError ? error.code : 'not an AppError';
  }
}

describe('unit: anonymous player tokens', () => {
  it('when a token is issued and verified, then the claims come back with the issue time in seconds', () => {
    const codec = new TokenCodec(SECRET);
    expect(codec.verify(codec.issue('p1', 'g1', NOW + 999), NOW)).to.deep.equal({ playerId: 'p1', gameId: 'g1', issuedAt: NOW / 1000 });
  });

  it('when a token arrives URL-mangled (spaces for +, base64url), then it still verifies', () => {
    const codec = new TokenCodec(SECRET);
    // Ids chosen so the base64 text holds '+' and '/'.
    const token = codec.issue('p>>>?', 'g???>', NOW);
    expect(token).to.match(/[+/]/);
    expect(outcome(codec, token.replace(/\+/g, ' '))).to.equal('valid');
    expect(outcome(codec, token.replace(/\+/g, '-').replace(/\//g, '_'))).to.equal('valid');
  });

  it('when a token was signed with another secret or its claims were changed, then it is invalid_token', () => {
    const codec = new TokenCodec(SECRET);
    expect(outcome(codec, new TokenCodec('another-secret-0123456789').issue('p1', 'g1', NOW))).to.equal('invalid_token');
    const body = JSON.parse(Buffer.from(codec.issue('p1', 'g1', NOW), 'base64').toString('utf8')) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...body, user_id: 'p2' }), 'utf8').toString('base64');
    expect(outcome(codec, forged)).to.equal('invalid_token');
  });

  it('when the text is not a token at all, then it is invalid_token, never another error', () => {
    const codec = new TokenCodec(SECRET);
    for (const text of [
      '',
      'not base64!',
      Buffer.from('[]').toString('base64'),
      Buffer.from('null').toString('base64'),
      'A'.repeat(4096),
    ]) {
      expect(outcome(codec, text), JSON.stringify(text.slice(0, 20))).to.equal('invalid_token');
    }
  });

  it('when a lifetime is set, then a token past it, or issued more than a minute ahead, is invalid_token', () => {
    const codec = new TokenCodec(SECRET, 3600);
    expect(outcome(codec, codec.issue('p1', 'g1', NOW - 3600_000))).to.equal('valid');
    expect(outcome(codec, codec.issue('p1', 'g1', NOW - 3601_000))).to.equal('invalid_token');
    expect(outcome(codec, codec.issue('p1', 'g1', NOW + 60_000))).to.equal('valid');
    expect(outcome(codec, codec.issue('p1', 'g1', NOW + 61_000))).to.equal('invalid_token');
    // Without a lifetime, an old token stays valid.
    expect(outcome(new TokenCodec(SECRET), codec.issue('p1', 'g1', 0))).to.equal('valid');
  });
});
