import { Cron } from 'croner';

/** When a leaderboard starts a new season by itself: a 5-field cron expression read in an IANA time zone. */
export interface ResetSchedule {
  cron: string;
  timezone: string;
}

/**
 * What is wrong with a schedule, or undefined when it is usable. Five fields only (minute to day of
 * week: one minute is the shortest interval), a zone the runtime knows by its IANA name, and at least
 * one time in the future.
 */
export function scheduleProblem(schedule: ResetSchedule): string | undefined {
  if (schedule.cron.trim().split(/\s+/).length !== 5) return 'cron must have 5 fields: minute hour day-of-month month day-of-week';
  if (!isIanaZone(schedule.timezone)) return `'${schedule.timezone}' is not an IANA time zone (e.g. Europe/Paris)`;
  let next: Date | null;
  try {
    next = nextResetAt(schedule, new Date());
  } catch (error) {
    return `cron is not valid: ${error instanceof Error ? error.message : String(error)}`;
  }
  return next ? undefined : 'cron never fires';
}

/** The first scheduled time strictly after `after`, daylight-saving transitions included; null when none. */
export function nextResetAt(schedule: ResetSchedule, after: Date): Date | null {
  return cronOf(schedule).nextRun(after);
}

/** The first `count` scheduled times strictly after `after` (ms), fewer when the schedule runs out. */
export function upcomingResets(schedule: ResetSchedule, after: Date, count: number): number[] {
  return cronOf(schedule)
    .nextRuns(count, after)
    .map((date) => date.getTime());
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The shortest time (seconds) between two consecutive runs of the schedule within `days` days from
 * `from`, daylight-saving changes included; Infinity when it runs less than twice. `open_seconds`
 * must not exceed it (docs/competitions.md, part 2). Exact without listing every run (a per-minute
 * cron runs 527,040 times in 366 days, and zone arithmetic costs ~0.25 ms a run): the minute and
 * hour fields give the same wall-clock times on every matching day, so a day without an offset change
 * contributes its times' smallest gap and its first and last run; only the days of an offset change
 * are listed run by run, by the schedule itself, so its rule for skipped and repeated times holds.
 */
export function shortestGap(schedule: ResetSchedule, from: Date, days = 366, stopBelow = 0): number {
  const [minute, hour, dayOfMonth, month, dayOfWeek] = schedule.cron.trim().split(/\s+/);
  const utc = (pattern: string) => new Cron(pattern, { utcOffset: 0, paused: true, legacyMode: true });
  // The day's wall-clock times, in ms after midnight, from a day every such pattern matches.
  const base = Date.UTC(2000, 0, 1);
  const times = utc(`${minute} ${hour} * * *`)
    .nextRuns(1440, new Date(base - 1))
    .map((run) => run.getTime() - base)
    .filter((time) => time < DAY);
  let shortest = Infinity;
  for (let i = 1; i < times.length; i++) shortest = Math.min(shortest, times[i]! - times[i - 1]!);
  if (shortest / 1000 < stopBelow) return shortest / 1000;
  const end = from.getTime() + days * DAY;
  const offsetAt = offsetReader(schedule.timezone);
  const zoned = cronOf(schedule);
  // Every run that bounds a gap not inside an ordinary day, in any order: each day's first and last
  // run, and every run within 3 hours of an offset change, listed by the schedule itself.
  const runs: number[] = [];
  const firstDay = Math.floor(from.getTime() / DAY) * DAY - DAY;
  for (const date of utc(`0 0 ${dayOfMonth} ${month} ${dayOfWeek}`).nextRuns(days + 3, new Date(firstDay - 1))) {
    const day = date.getTime(); // the wall-clock date, as a UTC midnight
    const start = day - offsetAt(day);
    let [near, far] = [start - HOUR, start + DAY + HOUR];
    if (offsetAt(near) === offsetAt(far)) {
      const offset = offsetAt(start);
      runs.push(day - offset + times[0]!, day - offset + times[times.length - 1]!);
      continue;
    }
    // The change, to the minute: it is the only one within the day (a zone changes months apart).
    while (far - near > MINUTE) {
      const middle = near + Math.floor((far - near) / 2 / MINUTE) * MINUTE;
      if (offsetAt(middle) === offsetAt(near)) near = middle;
      else far = middle;
    }
    const [low, high] = [near - 3 * HOUR, far + 3 * HOUR];
    const first = day - offsetAt(low) + times[0]!;
    const last = day - offsetAt(high) + times[times.length - 1]!;
    if (first < low) runs.push(first);
    if (last > high) runs.push(last);
    for (let run = zoned.nextRun(new Date(low)); run && run.getTime() <= high; run = zoned.nextRun(run)) runs.push(run.getTime());
  }
  const inWindow = [...new Set(runs.filter((run) => run >= from.getTime() && run <= end))].sort((a, b) => a - b);
  for (let i = 1; i < inWindow.length; i++) shortest = Math.min(shortest, inWindow[i]! - inWindow[i - 1]!);
  return shortest / 1000;
}

/** The zone's offset from UTC (ms) at an instant; 0 for UTC zones. */
function offsetReader(timezone: string): (at: number) => number {
  if (UTC_ZONES.has(timezone)) return () => 0;
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: timezone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  return (at) => {
    const parts = format.formatToParts(at);
    const part = (type: string) => Number(parts.find((p) => p.type === type)!.value);
    const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
    return wall - Math.floor(at / 1000) * 1000;
  };
}

/** Zones that are UTC under another name: no zone arithmetic needed (it costs ~0.5 ms an instant). */
const UTC_ZONES = new Set(['UTC', 'Etc/UTC', 'UCT', 'Etc/UCT', 'GMT', 'Etc/GMT', 'Universal', 'Etc/Universal', 'Zulu', 'Etc/Zulu']);

function cronOf(schedule: ResetSchedule): Cron {
  // legacyMode: day-of-month and day-of-week fields match when either does, as in Vixie cron.
  const zone = UTC_ZONES.has(schedule.timezone) ? { utcOffset: 0 } : { timezone: schedule.timezone };
  return new Cron(schedule.cron.trim(), { ...zone, paused: true, legacyMode: true });
}

/** IANA names only: offsets such as "+02:00", which the runtime also accepts, do not follow daylight saving. */
function isIanaZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(zone) || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
