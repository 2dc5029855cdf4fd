import type { ScenarioRun } from './load.js';
import { median } from './median.js';
import type { SeasonFigures } from './season-figures.js';

/** One line of the seasons table; `target` and `pass` absent for a figure only reported. */
export interface SeasonRow {
  figure: string;
  measured: string;
  comparedWith: string;
  ratio: string;
  target?: string;
  pass?: boolean;
}

export const num = (n: number) => Math.round(n).toLocaleString('en-US');
export const pct = (x: number) => `${Math.round(x * 100)}%`;
export const seconds = (ms: number | null) => (ms === null ? 'not within the timeout' : `${(ms / 1000).toFixed(1)} s`);
export const load = (run: ScenarioRun) => `${num(run.rps)} req/s, p50 ${run.p50} ms, p99 ${run.p99} ms, ${num(run.errors)} errors`;

/** The seasons scenario as rows: what the table prints and the targets judge. */
export function seasonRows(figures: SeasonFigures): SeasonRow[] {
  const entries = num(figures.entries);
  const [first, ...others] = figures.resetMs;
  const resetMedian = median(figures.resetMs);
  const rows: SeasonRow[] = [
    {
      figure: `reset request (POST …/reset), ${entries}-entry board`,
      measured: `${resetMedian.toFixed(1)} ms median of ${figures.resetMs.length}`,
      comparedWith: `the measured board ${first!.toFixed(1)} ms; copies ${others.map((ms) => ms.toFixed(1)).join(', ')} ms`,
      ratio: '',
      target: `season reset answers < 50 ms (${entries} entries, median)`,
      pass: resetMedian < 50,
    },
    {
      figure: `archive of the ${entries}-entry season complete in PostgreSQL, from the reset's answer`,
      measured: seconds(figures.archiveMs),
      comparedWith:
        `transaction began at ${seconds(figures.archiveStartMs)}; Redis keys gone at ${seconds(figures.redisDroppedMs)}; ` +
        `the load below ended at ${seconds(figures.duringLoadEndedMs)}`,
      ratio: '',
    },
  ];

  const before = figures.reportsBefore;
  const during = figures.reportsDuring;
  // The comparison holds only if the archive was still running when the load's measured seconds ended.
  const covered = figures.archiveMs === null || figures.archiveMs > figures.duringLoadEndedMs;
  const judged = (pass: boolean) => (covered && !before.missing && !during.missing ? pass : undefined);
  const worker = (run: ScenarioRun) => (run.workerCores === undefined ? '' : `; worker ${run.workerCores.toFixed(2)} cores`);
  const rpsRatio = during.rps / before.rps;
  const p99Ratio = during.p99 / before.p99;
  rows.push(
    {
      figure: `client report_score on the board while its archive runs: req/s${covered ? '' : ' (the archive ended before the load did)'}`,
      measured: `${load(during)}${worker(during)}`,
      comparedWith: `before the reset: ${load(before)}${worker(before)}`,
      ratio: pct(rpsRatio),
      target: 'report_score req/s during a 1M-season archive within 10% of before the reset',
      pass: judged(rpsRatio >= 0.9),
    },
    {
      figure: 'client report_score while the archive runs: p99',
      measured: `${during.p99} ms`,
      comparedWith: `${before.p99} ms`,
      ratio: `${p99Ratio.toFixed(2)}x`,
      target: 'report_score p99 during a 1M-season archive within 10% of before the reset',
      pass: judged(p99Ratio <= 1.1),
    },
  );

  if (figures.archiveMs === null) {
    rows.push({
      figure: 'archived reads vs live ones',
      measured: 'not measured: the archive did not complete',
      comparedWith: '',
      ratio: '',
      target: 'archived season reads within 20% of live',
      pass: false,
    });
  }
  for (const read of figures.reads) {
    const rounds = read.rounds.filter(({ archived, live }) => !archived.missing && !live.missing && live.rps > 0);
    const ratios = rounds.map(({ archived, live }) => archived.rps / live.rps);
    const p99 = (side: 'archived' | 'live') => median(rounds.map((round) => round[side].p99));
    const errors = (side: 'archived' | 'live') => num(rounds.reduce((n, round) => n + round[side].errors, 0));
    rows.push({
      figure: `${read.label}: archived season vs live board (${entries} entries each)`,
      measured: `${rounds.map(({ archived }) => num(archived.rps)).join(', ')} req/s, p99 ${p99('archived')} ms (median), ${errors('archived')} errors`,
      comparedWith: `${rounds.map(({ live }) => num(live.rps)).join(', ')} req/s, p99 ${p99('live')} ms (median), ${errors('live')} errors`,
      ratio: rounds.length > 0 ? `${pct(median(ratios))} (rounds ${ratios.map(pct).join(', ')})` : 'n/a',
      target: `${read.label}, archived season req/s within 20% of live (median of rounds)`,
      ...(rounds.length > 0 && { pass: median(ratios) >= 0.8 }),
    });
  }
  return rows;
}
