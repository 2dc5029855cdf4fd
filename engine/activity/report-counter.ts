import { reportsPerMinuteKey } from '../live/keys.js';
import type { Logger } from '../logger.js';
import type { RedisClient } from '../live/redis.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** How often each process adds what it counted to Redis. */
export const FLUSH_INTERVAL_MS = 5_000;
const KEEP_SECONDS = 2 * 60 * 60;

/**
 * Score reports per game and minute, for the dashboard's chart. A report only adds to a number in
 * this process's memory (no Redis round trip on the report path); every few seconds the sums go to
 * Redis, one HINCRBY per game and minute, where every process's counts meet.
 */
export class ReportCounter {
  /** game -> minute start (ms) -> reports not yet flushed. */
  private counts = new Map<string, Map<number, number>>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly deps: { redis: RedisClient; prefix: string; logger: Logger }) {
    this.timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  count(gameId: string, reports = 1): void {
    const minute = Math.floor(Date.now() / MINUTE) * MINUTE;
    let byMinute = this.counts.get(gameId);
    if (!byMinute) this.counts.set(gameId, (byMinute = new Map()));
    byMinute.set(minute, (byMinute.get(minute) ?? 0) + reports);
  }

  /** Adds what this process counted to Redis; counts a failed flush would lose are kept for the next. */
  async flush(): Promise<void> {
    const counts = this.counts;
    if (counts.size === 0) return;
    this.counts = new Map();
    const writes: Promise<unknown>[] = [];
    for (const [gameId, byMinute] of counts) {
      for (const [minute, reports] of byMinute) {
        const hour = Math.floor(minute / HOUR) * HOUR;
        const key = reportsPerMinuteKey(this.deps.prefix, gameId, hour);
        writes.push(
          this.deps.redis
            .multi()
            .hincrby(key, String((minute - hour) / MINUTE), reports)
            .expire(key, KEEP_SECONDS)
            .exec()
            .catch((error: unknown) => {
              this.deps.logger.warn({ err: error }, 'report counts not flushed; kept for the next flush');
              for (let i = 0; i < reports; i++) this.count(gameId);
            }),
        );
      }
    }
    await Promise.all(writes);
  }

  /** The game's reports per minute over the last 60 whole minutes and the current one, oldest first. */
  async lastHour(gameId: string): Promise<{ minute: number; reports: number }[]> {
    const now = Math.floor(Date.now() / MINUTE) * MINUTE;
    const thisHour = Math.floor(now / HOUR) * HOUR;
    const [current, previous] = await Promise.all(
      [thisHour, thisHour - HOUR].map((hour) => this.deps.redis.hgetall(reportsPerMinuteKey(this.deps.prefix, gameId, hour))),
    );
    const series: { minute: number; reports: number }[] = [];
    for (let minute = now - 60 * MINUTE; minute <= now; minute += MINUTE) {
      const hour = Math.floor(minute / HOUR) * HOUR;
      const held = hour === thisHour ? current : previous;
      series.push({ minute, reports: Number(held?.[String((minute - hour) / MINUTE)] ?? 0) });
    }
    return series;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
