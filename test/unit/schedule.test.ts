import { expect } from 'chai';
import { nextResetAt, scheduleProblem, shortestGap, upcomingResets, type ResetSchedule } from '../../engine/seasons/schedule.js';

const iso = (instants: number[]) => instants.map((ms) => new Date(ms).toISOString());
const HOUR = 3_600_000;

describe('unit: reset schedules (cron in an IANA zone)', () => {
  it('when a daily noon reset in Paris crosses the spring change, then the instants are 23 h apart once and noon local time each day', () => {
    const instants = upcomingResets({ cron: '0 12 * * *', timezone: 'Europe/Paris' }, new Date('2025-03-29T00:00:00Z'), 3);
    // 12:00 CET is 11:00 UTC; from 30 March, 12:00 CEST is 10:00 UTC.
    expect(iso(instants)).to.deep.equal(['2025-03-29T11:00:00.000Z', '2025-03-30T10:00:00.000Z', '2025-03-31T10:00:00.000Z']);
    expect(instants[1]! - instants[0]!).to.equal(23 * HOUR);
  });

  it('when the same reset crosses the autumn change, then one day lasts 25 h', () => {
    const instants = upcomingResets({ cron: '0 12 * * *', timezone: 'Europe/Paris' }, new Date('2025-10-25T00:00:00Z'), 3);
    expect(iso(instants)).to.deep.equal(['2025-10-25T10:00:00.000Z', '2025-10-26T11:00:00.000Z', '2025-10-27T11:00:00.000Z']);
    expect(instants[1]! - instants[0]!).to.equal(25 * HOUR);
  });

  it('when a daily time falls in the hour the spring change skips, then it fires once that day, an hour later on the clock', () => {
    const instants = upcomingResets({ cron: '30 2 * * *', timezone: 'Europe/Paris' }, new Date('2025-03-29T00:00:00Z'), 3);
    // 02:30 CET; 02:30 does not exist on 30 March (03:30 CEST, 01:30 UTC); 02:30 CEST.
    expect(iso(instants)).to.deep.equal(['2025-03-29T01:30:00.000Z', '2025-03-30T01:30:00.000Z', '2025-03-31T00:30:00.000Z']);
  });

  it('when a weekly Monday-midnight reset in New York crosses the end of daylight saving, then the week lasts 7 days and 1 hour', () => {
    const instants = upcomingResets({ cron: '0 0 * * 1', timezone: 'America/New_York' }, new Date('2025-10-27T00:00:00Z'), 2);
    expect(iso(instants)).to.deep.equal(['2025-10-27T04:00:00.000Z', '2025-11-03T05:00:00.000Z']);
    expect(instants[1]! - instants[0]!).to.equal(7 * 24 * HOUR + HOUR);
  });

  it('when asked the next reset at a scheduled instant, then it is the one after it (strictly later)', () => {
    const schedule = { cron: '0 12 * * *', timezone: 'Europe/Paris' };
    expect(nextResetAt(schedule, new Date('2025-03-30T10:00:00Z'))!.toISOString()).to.equal('2025-03-31T10:00:00.000Z');
    expect(nextResetAt(schedule, new Date('2025-03-30T09:59:59.999Z'))!.toISOString()).to.equal('2025-03-30T10:00:00.000Z');
  });

  it('when day of month and day of week are both set, then either matches, as in Vixie cron', () => {
    // The 13th, or any Friday: 13 July 2025 is a Sunday.
    const instants = upcomingResets({ cron: '0 0 13 * 5', timezone: 'UTC' }, new Date('2025-07-01T00:00:00Z'), 4);
    expect(iso(instants)).to.deep.equal([
      '2025-07-04T00:00:00.000Z',
      '2025-07-11T00:00:00.000Z',
      '2025-07-13T00:00:00.000Z',
      '2025-07-18T00:00:00.000Z',
    ]);
  });

  it('when UTC is named by an alias, then the instants are those of Etc/UTC, whatever the season', () => {
    const after = new Date('2025-03-29T00:00:00Z');
    const expected = ['2025-03-29T03:15:00.000Z', '2025-03-30T03:15:00.000Z', '2025-03-31T03:15:00.000Z'];
    expect(iso(upcomingResets({ cron: '15 3 * * *', timezone: 'UTC' }, after, 3))).to.deep.equal(expected);
    expect(iso(upcomingResets({ cron: '15 3 * * *', timezone: 'Etc/UTC' }, after, 3))).to.deep.equal(expected);
  });

  it('when a schedule is unusable, then scheduleProblem says why; a usable one has none', () => {
    expect(scheduleProblem({ cron: '0 0 * * 1', timezone: 'Europe/Paris' })).to.equal(undefined);
    expect(scheduleProblem({ cron: '0 0 * * * *', timezone: 'UTC' })).to.match(/^cron must have 5 fields/);
    expect(scheduleProblem({ cron: '0 0 * * *', timezone: '+02:00' })).to.match(/is not an IANA time zone/);
    expect(scheduleProblem({ cron: '0 0 * * *', timezone: 'Mars/Olympus' })).to.match(/is not an IANA time zone/);
    expect(scheduleProblem({ cron: '61 0 * * *', timezone: 'UTC' })).to.match(/^cron is not valid/);
    expect(scheduleProblem({ cron: '0 0 31 2 *', timezone: 'UTC' })).to.equal('cron never fires');
  });

  describe('shortestGap: the shortest time between runs, which open_seconds must not exceed', () => {
    /** Every run listed, one by one, by the schedule itself: the slow, obvious answer. */
    function listedGap(schedule: ResetSchedule, from: Date, days: number): number {
      const end = from.getTime() + days * 24 * HOUR;
      const runs: number[] = [];
      for (let run = nextResetAt(schedule, new Date(from.getTime() - 1)); run && run.getTime() <= end; run = nextResetAt(schedule, run)) {
        runs.push(run.getTime());
      }
      let shortest = Infinity;
      for (let i = 1; i < runs.length; i++) shortest = Math.min(shortest, runs[i]! - runs[i - 1]!);
      return shortest / 1000;
    }

    it('when a weekly Monday-midnight schedule in Paris spans a spring change, then the shortest week is 167 h; in UTC, 168 h', () => {
      const from = new Date('2026-11-27T00:00:00Z');
      expect(shortestGap({ cron: '0 0 * * 1', timezone: 'Europe/Paris' }, from)).to.equal(167 * 3600);
      expect(shortestGap({ cron: '0 0 * * 1', timezone: 'UTC' }, from)).to.equal(168 * 3600);
    });

    it('when a daily 09:00 schedule in New York spans both changes, then the shortest day is 23 h', () => {
      expect(shortestGap({ cron: '0 9 * * *', timezone: 'America/New_York' }, new Date('2026-11-27T00:00:00Z'))).to.equal(23 * 3600);
      // Only the autumn change within 60 days: the shortest is an ordinary 24 h day.
      expect(shortestGap({ cron: '0 9 * * *', timezone: 'America/New_York' }, new Date('2026-10-15T00:00:00Z'), 60)).to.equal(24 * 3600);
    });

    it('when schedules run within a day, around skipped and repeated hours, or rarely, then the answer equals listing every run', () => {
      const cases: [ResetSchedule, string, number][] = [
        [{ cron: '0 * * * *', timezone: 'Europe/Paris' }, '2026-03-10T00:00:00Z', 40],
        [{ cron: '*/20 1-3 * * *', timezone: 'Europe/Paris' }, '2026-03-20T00:00:00Z', 20],
        [{ cron: '15,45 2 * * 0', timezone: 'Europe/Paris' }, '2026-03-01T00:00:00Z', 60],
        [{ cron: '30 1 * * *', timezone: 'America/New_York' }, '2026-10-20T00:00:00Z', 30],
        [{ cron: '0,30 1-2 * * *', timezone: 'America/New_York' }, '2026-10-25T00:00:00Z', 14],
        [{ cron: '0 2 * * *', timezone: 'Australia/Lord_Howe' }, '2026-09-20T00:00:00Z', 30],
        [{ cron: '0 0,23 * * *', timezone: 'Europe/Paris' }, '2026-10-20T00:00:00Z', 14],
        [{ cron: '0 12 1 * *', timezone: 'Europe/Paris' }, '2026-11-27T00:00:00Z', 366],
        [{ cron: '0 12 29 2 *', timezone: 'UTC' }, '2026-11-27T00:00:00Z', 366],
      ];
      for (const [schedule, from, days] of cases) {
        expect(shortestGap(schedule, new Date(from), days), `${schedule.cron} ${schedule.timezone}`).to.equal(
          listedGap(schedule, new Date(from), days),
        );
      }
    });

    it('when asked to stop below a bound, then a per-minute schedule answers 60 at once', () => {
      expect(shortestGap({ cron: '* * * * *', timezone: 'Europe/Paris' }, new Date('2026-11-27T00:00:00Z'), 366, 61)).to.equal(60);
    });
  });
});
