import type { RedisClient } from '../live/redis.js';
import { leaderboardKeys, resetScheduleKey } from '../live/keys.js';
import type { SeasonRotation } from '../live/season-rotation.js';
import { upcomingResets, type ResetSchedule } from './schedule.js';

/** How many coming resets each scheduled board keeps in Redis: how far behind the worker may fall. */
const UPCOMING = 10;
/** A board whose look failed is looked at again this much later, after the others. */
const RETRY_MS = 5000;

/**
 * The reset schedule in Redis, so that scheduled resets run while PostgreSQL is down. Each board
 * keeps its cron and zone and its next UPCOMING instants beside its keys; the first stands in its
 * season key, so the board's own scripts end the season at that instant, whoever touches it first
 * (SeasonRotation.reset 'due'). One zset over every board (internal id -> the next instant, ms), written
 * first, tells the worker which boards to look at, so that an untouched board's season ends and is
 * archived too. An index entry with no schedule behind it is dropped by the scheduler.
 */
export class ResetSchedules {
  constructor(
    private readonly deps: {
      redis: RedisClient;
      prefix: string;
      rotation: SeasonRotation;
    },
  ) {}

  /** Puts a board's schedule (or its absence) in Redis, with its coming instants after now. */
  async set(board: { internalId: number; resetSchedule: ResetSchedule | null }, now = new Date()): Promise<void> {
    const instants = board.resetSchedule ? upcomingResets(board.resetSchedule, now, UPCOMING) : [];
    await this.put(board.internalId, board.resetSchedule, instants, 'replace');
  }

  /**
   * Puts a board's schedule back after Redis lost it (its preparation): a reset that has come since
   * the season started (by PostgreSQL) is due at once, and happens once.
   */
  async restore(
    board: { internalId: number; resetSchedule: ResetSchedule | null; seasonStartedAt: Date },
    now = new Date(),
  ): Promise<void> {
    if (!board.resetSchedule) return;
    const [missed] = upcomingResets(board.resetSchedule, board.seasonStartedAt, 1);
    const coming = upcomingResets(board.resetSchedule, now, UPCOMING);
    const instants = missed !== undefined && missed <= now.getTime() ? [missed, ...coming] : coming;
    await this.put(board.internalId, board.resetSchedule, instants, 'earlier');
  }

  /**
   * After the worker's look at a due board: its coming instants are topped up to UPCOMING (only the
   * missing ones are computed: a time zone's arithmetic costs ~0.5 ms an instant) and its index
   * entry moves on to the next one.
   */
  async refill(internalId: number, schedule: ResetSchedule, now = new Date()): Promise<void> {
    const board = { internalId };
    const { count, last } = await this.deps.rotation.scheduledResets(board);
    const missing = count >= UPCOMING ? [] : upcomingResets(schedule, new Date(Math.max(now.getTime(), last)), UPCOMING - count);
    const next = await this.deps.rotation.scheduleResets(board, missing, 'add');
    if (next === undefined) await this.deps.redis.zrem(resetScheduleKey(this.deps.prefix), internalId);
    else await this.deps.redis.zadd(resetScheduleKey(this.deps.prefix), next, internalId);
  }

  /** A board whose look failed: looked at again later, without holding up the others. */
  async retryLater(internalId: number, now = Date.now()): Promise<void> {
    await this.deps.redis.zadd(resetScheduleKey(this.deps.prefix), 'XX', now + RETRY_MS, internalId);
  }

  /** Boards due for a look (their next instant has come), oldest first: as many as there are scheduled boards at most. */
  async due(now: number): Promise<number[]> {
    const ids = await this.deps.redis.zrangebyscore(resetScheduleKey(this.deps.prefix), '-inf', now);
    return ids.map(Number);
  }

  /** The board's schedule as Redis holds it; undefined when it has none (its index entry is then dropped). */
  async scheduleOf(internalId: number): Promise<ResetSchedule | undefined> {
    const json = await this.deps.redis.get(leaderboardKeys(this.deps.prefix, internalId).resetSchedule);
    if (json) return JSON.parse(json) as ResetSchedule;
    await this.deps.redis.zrem(resetScheduleKey(this.deps.prefix), internalId);
    return undefined;
  }

  /** Drops a deleted board's index entry. */
  async forget(internalId: number): Promise<void> {
    await this.deps.redis.zrem(resetScheduleKey(this.deps.prefix), internalId);
  }

  /**
   * Writes a schedule: the index entry first (it spans boards), then the board's cron, then its
   * instants with the season key, in one step of the board (engine/live/scripts/scheduleResets-3.lua).
   * `earlier` keeps an index entry that is due sooner (a rebuild must not push a due look back).
   */
  private async put(internalId: number, schedule: ResetSchedule | null, instants: number[], index: 'replace' | 'earlier'): Promise<void> {
    const cronKey = leaderboardKeys(this.deps.prefix, internalId).resetSchedule;
    if (!schedule || instants.length === 0) {
      await this.deps.redis.zrem(resetScheduleKey(this.deps.prefix), internalId);
      await this.deps.redis.del(cronKey);
      await this.deps.rotation.scheduleResets({ internalId }, []);
      return;
    }
    if (index === 'earlier') await this.deps.redis.zadd(resetScheduleKey(this.deps.prefix), 'LT', instants[0]!, internalId);
    else await this.deps.redis.zadd(resetScheduleKey(this.deps.prefix), instants[0]!, internalId);
    await this.deps.redis.set(cronKey, JSON.stringify(schedule));
    await this.deps.rotation.scheduleResets({ internalId }, instants);
  }
}
