import type { RedisClient } from '../redis.js';
import { leaderboardKeys, resetScheduleKey } from '../keys.js';
import { nextResetAt, type ResetSchedule } from './schedule.js';

/** How many due resets the scheduler takes per round. */
const DUE_BATCH = 100;

/**
 * The reset schedule in Redis, so that scheduled resets run while PostgreSQL is down: one zset over
 * every board (internal id -> next reset, ms), written first, and each board's cron and zone
 * beside its keys. An index entry with no schedule behind it is dropped by the scheduler.
 */
export class ResetSchedules {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  /** Puts a board's schedule (or its absence) in Redis, with its next time after now. */
  async set(board: { internalId: number; resetSchedule: ResetSchedule | null }, now = new Date()): Promise<void> {
    const key = leaderboardKeys(this.prefix, board.internalId).resetSchedule;
    const next = board.resetSchedule && nextResetAt(board.resetSchedule, now);
    if (!board.resetSchedule || !next) {
      await this.redis.del(key);
      await this.redis.zrem(resetScheduleKey(this.prefix), board.internalId);
      return;
    }
    await this.redis.zadd(resetScheduleKey(this.prefix), next.getTime(), board.internalId);
    await this.redis.set(key, JSON.stringify(board.resetSchedule));
  }

  /**
   * Puts a board's schedule back after Redis lost it (rebuild): an entry still indexed keeps its
   * time, so a reset that is due is not skipped.
   */
  async restore(board: { internalId: number; resetSchedule: ResetSchedule | null }, now = new Date()): Promise<void> {
    const next = board.resetSchedule && nextResetAt(board.resetSchedule, now);
    if (!board.resetSchedule || !next) return;
    await this.redis.zadd(resetScheduleKey(this.prefix), 'NX', next.getTime(), board.internalId);
    await this.redis.set(leaderboardKeys(this.prefix, board.internalId).resetSchedule, JSON.stringify(board.resetSchedule));
  }

  /** Boards whose reset time has come: internal id and the time it was due (ms). */
  async due(now: number): Promise<{ internalId: number; dueAt: number }[]> {
    const flat = await this.redis.zrangebyscore(resetScheduleKey(this.prefix), '-inf', now, 'WITHSCORES', 'LIMIT', 0, DUE_BATCH);
    const due: { internalId: number; dueAt: number }[] = [];
    for (let i = 0; i < flat.length; i += 2) due.push({ internalId: Number(flat[i]), dueAt: Number(flat[i + 1]) });
    return due;
  }

  /** The board's schedule as Redis holds it; undefined when it has none (its index entry is then dropped). */
  async scheduleOf(internalId: number): Promise<ResetSchedule | undefined> {
    const json = await this.redis.get(leaderboardKeys(this.prefix, internalId).resetSchedule);
    if (json) return JSON.parse(json) as ResetSchedule;
    await this.redis.zrem(resetScheduleKey(this.prefix), internalId);
    return undefined;
  }

  /**
   * Moves a board's entry on to its next time. Only forward and only while it is indexed, so a
   * second scheduler repeating it, or a schedule removed meanwhile, changes nothing.
   */
  async advance(internalId: number, next: Date | null): Promise<void> {
    if (next) await this.redis.zadd(resetScheduleKey(this.prefix), 'XX', 'GT', next.getTime(), internalId);
    else await this.redis.zrem(resetScheduleKey(this.prefix), internalId);
  }
}
