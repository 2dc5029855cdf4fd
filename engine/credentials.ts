import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Random, URL-safe identifiers and keys. Keys are long random strings, so SHA-256 suffices to store them. */
export function randomId(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

/** 12 URL-safe characters (72 random bits): short because it is stored once per ranked entry. */
export function newPlayerId(): string {
  return randomId(9);
}

export const newGameId = () => `g_${randomId(9)}`;
export const newPublishableKey = () => `pk_${randomId(24)}`;
export const newSecretKey = () => `sk_${randomId(32)}`;
export const newThirdPartyKeyId = () => `key_${randomId(9)}`;
export const newThirdPartyKey = () => `tpk_${randomId(32)}`;

export function hashKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

export function constantTimeEqual(a: string | Buffer, b: string | Buffer): boolean {
  const left = typeof a === 'string' ? hashKey(a) : a;
  const right = typeof b === 'string' ? hashKey(b) : b;
  return left.length === right.length && timingSafeEqual(left, right);
}
