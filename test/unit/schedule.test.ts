import { expect } from 'chai';
import { nextResetAt, scheduleProblem, upcomingResets } from '../../engine/seasons/schedule.js';

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
});
