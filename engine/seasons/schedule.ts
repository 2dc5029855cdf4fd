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
