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
  // legacyMode: day-of-month and day-of-week fields match when either does, as in Vixie cron.
  const cron = new Cron(schedule.cron.trim(), { timezone: schedule.timezone, paused: true, legacyMode: true });
  return cron.nextRun(after);
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
