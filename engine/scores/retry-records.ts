import { createHash } from 'node:crypto';
import { stringify } from 'safe-stable-stringify';
import { ConflictError } from '../errors.js';
import { requestRetryKey } from '../live/keys.js';
import type { RedisClient } from '../live/redis.js';

/** What each board's report script needs to remember, or replay, its part of a request. */
export interface RetryRecord {
  /** Names the key's scope (game, kind of report, player, key): the record's key on each board. */
  digest: string;
  /** The request as parsed JSON, hashed: a replay must match it. */
  fingerprint: string;
  ttlMs: number;
  /** Whether the same request claimed the key before (a retry). */
  replay: boolean;
  /** When the request first arrived (ms): a retry is judged by the boards' windows as the first was. */
  arrivedAt: number;
  /** The claim's value: the fingerprint and the first arrival. */
  claimed: string;
}

/**
 * Idempotency-Key records. A request's fingerprint is claimed first under a key spanning its boards,
 * so the same key with another request is refused before any board is touched; then each board's
 * report script keeps the board's answer beside the score it applied, in one step (reportScore).
 * Both are remembered only once a request got that far, so an invalid request is never remembered.
 */
export class RetryRecords {
  constructor(
    private readonly deps: {
      redis: RedisClient;
      prefix: string;
      ttlSeconds: number;
    },
  ) {}

  /**
   * Claims `key` within `scope` for this request, which arrived at `arrivedAt` (ms); 409 conflict when
   * it came with another request.
   */
  async claim(scope: string[], key: string, request: unknown, arrivedAt: number): Promise<RetryRecord> {
    const digest = hash(JSON.stringify([...scope, key]));
    // Keys sorted: "the same body" is the same parsed JSON, whatever the order of its keys.
    const fingerprint = hash(stringify(request) ?? 'null');
    const ttlMs = this.deps.ttlSeconds * 1000;
    const claimed = `${fingerprint} ${arrivedAt}`;
    const first = await this.deps.redis.set(requestRetryKey(this.deps.prefix, digest), claimed, 'PX', ttlMs, 'NX', 'GET');
    // A claim written before claims kept the arrival holds the fingerprint alone.
    const [firstFingerprint, firstArrival] = first === null ? [fingerprint, undefined] : first.split(' ');
    if (firstFingerprint !== fingerprint) {
      throw new ConflictError('This Idempotency-Key was used with another request.');
    }
    return {
      digest,
      fingerprint,
      ttlMs,
      replay: first !== null,
      arrivedAt: firstArrival === undefined ? arrivedAt : Number(firstArrival),
      claimed: first ?? claimed,
    };
  }

  /** Forgets a claim whose request applied nothing (an error answer is not remembered). */
  async release(record: RetryRecord): Promise<void> {
    await this.deps.redis.compareAndSet(requestRetryKey(this.deps.prefix, record.digest), record.claimed, '');
  }
}

/** SHA-256, base64url: 43 characters, no spaces (the report script's record separates by spaces). */
function hash(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}
