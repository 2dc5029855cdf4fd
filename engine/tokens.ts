import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { AuthenticationError } from './errors.js';

/**
 * Anonymous player tokens: standard base64 of a UTF-8 JSON object {user_id, game_id, iat, sig},
 * where sig is an HMAC-SHA256 over the other fields. Stateless: verifying one costs no I/O.
 */
export interface TokenClaims {
  playerId: string;
  gameId: string;
  issuedAt: number;
}

// How far a token's iat may lie ahead of this server's clock (servers' clocks differ a little).
const MAX_CLOCK_SKEW_SECONDS = 60;

export class TokenCodec {
  // Prepared once: every game client request verifies a token, and importing the key is a third of an HMAC.
  private readonly key: KeyObject;

  constructor(
    secret: string,
    private readonly ttlSeconds?: number,
  ) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  issue(playerId: string, gameId: string, now = Date.now()): string {
    const iat = Math.floor(now / 1000);
    const body = { user_id: playerId, game_id: gameId, iat, sig: this.sign(playerId, gameId, iat) };
    return Buffer.from(JSON.stringify(body), 'utf8').toString('base64');
  }

  /** Throws invalid_token for anything that is not a token this service signed and still honours. */
  verify(token: string, now = Date.now()): TokenClaims {
    const invalid = () => new AuthenticationError('invalid_token', 'The anonymous token is not valid.');
    // Engines do not always URL-encode: a '+' may arrive as a space, and some send base64url.
    const normalised = token.trim().replace(/ /g, '+').replace(/-/g, '+').replace(/_/g, '/');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(normalised) || normalised.length > 2048) throw invalid();
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(normalised, 'base64').toString('utf8'));
    } catch {
      throw invalid();
    }
    if (typeof parsed !== 'object' || parsed === null) throw invalid();
    const { user_id, game_id, iat, sig } = parsed as Record<string, unknown>;
    if (
      typeof user_id !== 'string' ||
      typeof game_id !== 'string' ||
      typeof iat !== 'number' ||
      !Number.isInteger(iat) ||
      typeof sig !== 'string' ||
      !this.signatureMatches(sig, user_id, game_id, iat)
    ) {
      throw invalid();
    }
    if (this.ttlSeconds !== undefined && iat + this.ttlSeconds < now / 1000) {
      throw new AuthenticationError('invalid_token', 'The anonymous token has expired; sign up again.');
    }
    // A token from the future would outlive the lifetime; this service never issues one.
    if (this.ttlSeconds !== undefined && iat > now / 1000 + MAX_CLOCK_SKEW_SECONDS) {
      throw new AuthenticationError('invalid_token', 'The anonymous token was issued in the future; sign up again.');
    }
    return { playerId: user_id, gameId: game_id, issuedAt: iat };
  }

  private sign(playerId: string, gameId: string, iat: number): string {
    return createHmac('sha256', this.key)
      .update(JSON.stringify([playerId, gameId, iat]))
      .digest('base64url');
  }

  /** Compares the signature text in constant time (its length, 43 characters, is no secret). */
  private signatureMatches(sig: string, playerId: string, gameId: string, iat: number): boolean {
    const presented = Buffer.from(sig, 'utf8');
    const expected = Buffer.from(this.sign(playerId, gameId, iat), 'utf8');
    return presented.length === expected.length && timingSafeEqual(presented, expected);
  }
}
