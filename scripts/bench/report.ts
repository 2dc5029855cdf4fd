import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { METADATA_BYTES } from './fixtures.js';
import type { MemoryFigures } from './redis-figures.js';
import { median } from './median.js';
import { bareFor, clusterPairs, rungFor, type BenchResults } from './results.js';
import { RUNGS } from './scenarios.js';
import { coresOf, type ScenarioRun } from './load.js';
import type { TargetCheck } from './targets.js';
import { comparisonRows } from './compare.js';
import { seasonRows, type SeasonRow } from './season-rows.js';
import { leagueRows } from './league-figures.js';
import type { SideRatio } from './rounds.js';
import { tieRatios } from './ties-figures.js';
import { eventRatios } from './event-figures.js';
import { historyRatios } from './history-figures.js';
import { reviewRatios } from './review-figures.js';

const num = (n: number) => Math.round(n).toLocaleString('en-US');
const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;

/** The table of a run, as markdown: scenarios, worker, memory, rank read, then the targets. */
export function renderMarkdown(results: BenchResults, checks: TargetCheck[]): string {
  const { options, machine } = results;
  const lines = [
    `# Benchmark ${results.startedAt}`,
    '',
    `${num(options.players)} players; ${options.duration} s per scenario after ${options.warmup} s of warm-up, ` +
      `${options.connections} connections; ${machine.cpus} CPUs, Node ${machine.node}, Redis ${machine.redis}, ` +
      `PostgreSQL ${machine.postgres}. Seeding took ${results.seedSeconds.toFixed(1)} s. ` +
      'req/s is the median of per-second samples; errors are non-2xx answers plus socket errors and timeouts.',
    '',
    `Load average (1 min) ${machine.loadAverage.start.toFixed(2)} before the run, ${machine.loadAverage.end.toFixed(2)} at its end. ` +
      '"cores used" says where the machine\'s CPU went during each scenario, over its load generator\'s whole ' +
      "run: the server's processes (the API or the bare app), the persistence worker (persisting reports, " +
      'and its periodic clan reconciliation), Redis, PostgreSQL, the load generator, and "other": processes ' +
      'outside the bench, Redis and PostgreSQL, where anything above ~0.1 core means the figure was taken on a ' +
      `busy machine. Their sum against the ${machine.cpus} CPUs says whether the machine had cores to spare. ` +
      '"server CPU us/req" (the API or bare processes\' own CPU time per request, warm-up included) is hardly ' +
      'moved by the others.',
    '',
  ];
  if (results.cluster) lines.push(...clusterSection(results));
  else if (results.comparison) lines.push(...comparisonSection(results));
  else if (results.runs.length > 0) lines.push(...serviceSections(results)); // none when --only named optional scenarios alone
  if (results.seasons) lines.push(...seasonsSection(results));
  if (results.league) lines.push(...leagueSection(results));
  if (results.moderation) lines.push(...moderationSection(results));
  if (results.ties) lines.push(...tiesSection(results));
  if (results.events) lines.push(...eventsSection(results));
  if (results.review) lines.push(...reviewSection(results));
  if (results.history) lines.push(...historySection(results));

  lines.push('', '## Targets', '', row(['target', 'measured', 'result']), row(['---', '---', '---']));
  for (const c of checks) lines.push(row([c.target, c.measured, c.status]));
  return lines.join('\n') + '\n';
}

/** --compare: each scenario on the other revision's API and on this one. */
function comparisonSection(results: BenchResults): string[] {
  const comparison = results.comparison!;
  const lines = [
    `## This build against ${comparison.revision} (${comparison.commit.slice(0, 12)}), 1 API process, alternating rounds`,
    '',
    row([
      'scenario',
      'rounds',
      `${comparison.revision} req/s`,
      'this build req/s',
      'ratio (median of rounds)',
      'per round',
      `${comparison.revision} CPU us/req`,
      'this build CPU us/req',
    ]),
    row(['---', '---:', '---:', '---:', '---:', '---', '---:', '---:']),
  ];
  for (const r of comparisonRows(comparison)) {
    lines.push(
      row([
        r.label,
        r.rounds,
        num(r.beforeRps),
        num(r.afterRps),
        `${(r.ratio * 100).toFixed(1)}%`,
        r.perRound.map((x) => `${(x * 100).toFixed(0)}%`).join(', '),
        num(r.beforeCpu),
        num(r.afterCpu),
      ]),
    );
  }
  return lines;
}

/** The usual run: scenarios against the ceiling, worker, memory and rank reads. */
function serviceSections(results: BenchResults): string[] {
  const lines = [
    row([
      'scenario',
      'processes',
      'req/s',
      'p50 ms',
      'p99 ms',
      'errors',
      'vs bare (same method)',
      'vs its rung',
      'p99 vs bare',
      'server CPU us/req',
      'peak RSS MB',
      'cores used: server / worker / Redis / PostgreSQL / load generator / other = all',
    ]),
    row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
  ];
  for (const run of results.runs) {
    if (run.missing) {
      lines.push(row([run.label, run.processes, 'n/a (endpoint missing)', '', '', '', '', '', '', '', '', '']));
      continue;
    }
    const isRung = Object.values(RUNGS).includes(run.label);
    const bare = run.target === 'api' || isRung ? bareFor(results, run) : undefined;
    const ratio = bare ? `${Math.round((run.rps / bare.rps) * 100)}% of ${run.method}` : '';
    const rung = run.target === 'api' ? rungFor(results, run) : undefined;
    const ofRung = rung ? `${Math.round((run.rps / rung.rps) * 100)}%` : '';
    const p99 = bare ? `${(run.p99 / bare.p99).toFixed(1)}x` : '';
    const rss = run.rssMb ? num(run.rssMb) : '';
    const cpu = run.cpuMicros === undefined ? '' : num(run.cpuMicros);
    lines.push(
      row([run.label, run.processes, num(run.rps), run.p50, run.p99, num(run.errors), ratio, ofRung, p99, cpu, rss, coresUsed(run)]),
    );
  }

  lines.push('', '## Worker', '', row(['figure', 'value']), row(['---', '---']));
  for (const lag of results.worker.report) {
    const n = `${lag.processes} API process${lag.processes > 1 ? 'es' : ''}`;
    lines.push(
      row([
        `PostgreSQL lag during report_score, ${n} (p50 / p99, bucket bounds)`,
        `<= ${lag.lagP50} s / <= ${lag.lagP99} s over ${num(lag.observations)} writes`,
      ]),
    );
    lines.push(row([`largest pending_persistence seen during it, ${n}`, num(lag.maxPending)]));
    lines.push(row([`time to pending_persistence 0 after it, ${n}`, lag.drainMs === null ? 'did not drain' : `${lag.drainMs} ms`]));
  }
  const backlog = results.worker.backlog;
  if (backlog) {
    lines.push(row(['backlog drained (distinct score changes)', num(backlog.changes)]));
    lines.push(row(['drain rate once writing', backlog.rate ? `${num(backlog.rate)} changes/s` : 'did not drain']));
    lines.push(
      row([
        'drain time from worker spawn (start-up included)',
        backlog.totalMs === null ? 'did not drain' : `${(backlog.totalMs / 1000).toFixed(1)} s`,
      ]),
    );
  }
  const recount = results.worker.recount;
  if (recount) {
    lines.push(
      row([
        `clan recount of ${num(recount.members)} members, as the worker runs it: time, CPU, Redis commands`,
        `${recount.seconds.toFixed(1)} s, ${recount.cpuSeconds.toFixed(1)} s of CPU, ${num(recount.redisCommands)} commands`,
      ]),
    );
    lines.push(
      row([
        'longest event-loop stall during the recount / RSS growth',
        `${num(recount.eventLoopMaxMs)} ms / ${num(recount.rssGrowthMb)} MB`,
      ]),
    );
  }
  lines.push(row(['worker peak RSS', `${results.worker.peakRssMb.toFixed(0)} MB`]));
  for (const api of results.apiPeakRssMb)
    lines.push(row([`API peak RSS under load, largest process (${api.processes} processes)`, `${api.mb.toFixed(0)} MB`]));

  const many = results.manyBoards;
  if (many) {
    lines.push('', `## ${num(many.boards)} leaderboards over ${many.games} games`, '', row(['figure', 'value']), row(['---', '---']));
    lines.push(
      row([`Redis commands/s sent by the idle service (API + worker, over ${many.idleSeconds} s)`, many.idleCommandsPerSecond.toFixed(1)]),
    );
    lines.push(row([`/readyz (10 connections): req/s, p50 / p99`, `${num(many.readyz.rps)}, ${many.readyz.p50} / ${many.readyz.p99} ms`]));
    lines.push(
      row(['API peak RSS during /readyz / worker peak RSS', `${many.apiRssMb.toFixed(0)} MB / ${many.workerRssMb.toFixed(0)} MB`]),
    );
    lines.push(row([many.reports.label, `${num(many.reports.rps)} req/s, p99 ${many.reports.p99} ms, ${num(many.reports.errors)} errors`]));
    lines.push(row(['PostgreSQL lag p99 during it', `<= ${many.lagP99} s over ${num(many.lagObservations)} writes`]));
  }
  const recovery = results.recovery;
  if (recovery) {
    lines.push(
      '',
      `## A lost dataset: ${num(recovery.boards)} boards, ${num(recovery.scoredBoards)} of them scored`,
      '',
      'Redis loses every key of these boards and the dataset marker, as a node that restarted empty.',
      '',
      row(['figure', 'value']),
      row(['---', '---']),
      row([
        `first touch of a scored board not yet rebuilt (record read, no worker; ${recovery.touchMs.length} boards), p50 / p99`,
        `${median(recovery.touchMs).toFixed(1)} / ${quantile(recovery.touchMs, 0.99).toFixed(1)} ms`,
      ]),
      row(['the worker asks for the rebuild walk, after the loss', `${(recovery.noticedMs / 1000).toFixed(1)} s`]),
      row(['every scored board back (most active first), after the loss', `${(recovery.scoredBackMs / 1000).toFixed(1)} s`]),
      row([`all ${num(recovery.boards)} boards back (full recovery), after the loss`, `${(recovery.allBackMs / 1000).toFixed(1)} s`]),
    );
  }
  lines.push('', '## Redis and rank reads', '', row(['figure', 'value']), row(['---', '---']));
  const memoryRow = (what: string, memory: MemoryFigures) => {
    lines.push(
      row([`bytes per ranked entry, ${what} (${num(memory.entries)} entries)`, `${memory.perEntry.toFixed(1)} B (${keysTaking(memory)})`]),
    );
  };
  for (const [name, memory] of Object.entries(results.memory)) if (memory) memoryRow(`${name} board`, memory);
  if (results.metadataMemory) memoryRow(`individual board, ${METADATA_BYTES} B of metadata on every entry`, results.metadataMemory);
  const idempotency = results.idempotency;
  if (idempotency) {
    const records = `${num(idempotency.boardBytes / idempotency.reports)} B board record + ${num(idempotency.requestBytes / idempotency.reports)} B request record`;
    lines.push(
      row([
        `Redis bytes per report with an Idempotency-Key, kept ${(idempotency.ttlSeconds / 3600).toFixed(0)} h (${num(idempotency.reports)} keyed reports; MEMORY USAGE / used_memory freed on deleting them)`,
        `${idempotency.perReport.toFixed(0)} B (${records}) / ${idempotency.freedPerReport.toFixed(0)} B`,
      ]),
    );
  }
  for (const [board, cost] of [
    ['small', results.rankRead.small],
    ['main', results.rankRead.large],
  ] as const) {
    if (!cost) continue;
    const http = cost.rps ? `, HTTP record read ${num(cost.rps)} req/s` : '';
    lines.push(
      row([
        `rank read, ${board} board (${num(cost.entries)} entries)`,
        `Redis ${cost.serverMicros.toFixed(1)} us/read, engine ${cost.wallMicros.toFixed(1)} us/read pipelined${http}`,
      ]),
    );
  }

  const avatars = results.avatarSizes;
  if (avatars) {
    lines.push('', '## Avatars', '', row(['figure', 'value']), row(['---', '---']));
    const setup = `${avatars.requests} requests over ${avatars.players} players, cold avatar cache, in the bench process, median of ${avatars.rounds} round${avatars.rounds > 1 ? 's' : ''}`;
    lines.push(
      row([
        `distinct sizes (16-512 px) vs all 128 px (${setup})`,
        `${num(avatars.distinctMs)} ms vs ${num(avatars.equalMs)} ms (${avatars.ratio.toFixed(2)}x)`,
      ]),
    );
  }

  return lines;
}

/** --only seasons: the reset, the archive, report_score around it and archived reads against live ones. */
function seasonsSection(results: BenchResults): string[] {
  const figures = results.seasons!;
  const lines = [
    '',
    `## Seasons: a ${num(figures.entries)}-entry board reset and archived`,
    '',
    "1 API process, worker apart. The reset's time is the caller's, on a kept-alive connection: the measured board's reset " +
      'and those of copies of it (reset with no worker running, then deleted unarchived). report_score runs on the board ' +
      'right before the reset and again right after it, while the worker archives the ended season. The reads alternate ' +
      'between season 1 of the reset board (read from PostgreSQL) and the live main board (Redis), rounds in turn starting ' +
      "with either; the ratio is the median of the rounds' ratios.",
    '',
    ...figureTable(seasonRows(figures)),
  ];
  return lines;
}

/** A table of figures, each judged against its target (or only reported). */
function figureTable(rows: SeasonRow[]): string[] {
  const lines = [
    row(['figure', 'measured', 'compared with', 'ratio', 'target', 'result']),
    row(['---', '---', '---', '---:', '---', '---']),
  ];
  for (const r of rows) {
    const result = r.target === undefined ? '' : r.pass === undefined ? 'n/a' : r.pass ? 'PASS' : 'FAIL';
    lines.push(row([r.figure, r.measured, r.comparedWith, r.ratio, r.target ?? 'reported', result]));
  }
  return lines;
}

/** --only league: a league's season end, its moves and archive, and report_score around it. */
function leagueSection(results: BenchResults): string[] {
  const figures = results.league!;
  const lines = [
    '',
    `## League: the season end of ${num(figures.players)} players in groups of 50`,
    '',
    '1 API process, worker apart, all players in the middle of three tiers and scored. The reset is answered at once; ' +
      'the worker (or the first player of the next season) then moves every group and archives the season with its ' +
      'groups and tiers. report_score runs on the main board for a few seconds right before the reset and again right after it.',
    '',
    ...figureTable(leagueRows(figures)),
  ];
  return lines;
}

/** The value below which a share q of the values fall (nearest rank). */
function quantile(values: number[], q: number): number {
  return [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;
}

/** --only moderation: ban and unban latency on 10 big boards; reads with 1% of players banned against none. */
function moderationSection(results: BenchResults): string[] {
  const figures = results.moderation!;
  const lines = [
    '',
    `## Moderation: bans on 10 boards of ${num(figures.entries)} entries, reads with ${num(figures.banned)} players banned`,
    '',
    `Ban and unban through the engine as the API runs them (PostgreSQL transaction with its audit entry, one script per board ` +
      `of the game: ${figures.gameBoards} boards, 10 of them holding the player among ${num(figures.entries)} entries), ${figures.banMs.length} players each. ` +
      "The reads alternate rounds with no player banned and with 1% of the main board's players banned (hidden in Redis), " +
      "starting with either; they draw players from the 99% never banned; the ratio is the median of the rounds' ratios.",
    '',
    row(['figure', 'measured', 'compared with', 'ratio', 'target', 'result']),
    row(['---', '---', '---', '---:', '---', '---']),
  ];
  for (const [name, values] of [
    ['ban', figures.banMs],
    ['unban', figures.unbanMs],
  ] as const) {
    const p50 = median(values);
    const p95 = quantile(values, 0.95);
    lines.push(
      row([`${name}, median / p95`, `${p50.toFixed(1)} / ${p95.toFixed(1)} ms`, '', '', '< 50 ms (p95)', p95 < 50 ? 'PASS' : 'FAIL']),
    );
  }
  for (const { label, rounds } of figures.reads) {
    const ratios = rounds.map(({ clean, banned }) => banned.rps / clean.rps);
    const ratio = median(ratios);
    lines.push(
      row([
        `${label}, 1% banned`,
        `${rounds.map(({ banned }) => num(banned.rps)).join(', ')} req/s`,
        `${rounds.map(({ clean }) => num(clean.rps)).join(', ')} req/s with no bans`,
        `${Math.round(ratio * 100)}% (${ratios.map((r) => `${Math.round(r * 100)}%`).join(', ')})`,
        '>= 90% of no bans',
        ratio >= 0.9 ? 'PASS' : 'FAIL',
      ]),
    );
  }
  return lines;
}

/** --cluster: each scenario on the single Redis next to the same scenario on the Redis Cluster, round by round. */
export function clusterSection(results: BenchResults): string[] {
  const cluster = results.cluster!;
  const lines = [
    '',
    '## Redis Cluster vs single Redis',
    '',
    `1 API process, worker apart, both services up for the whole comparison; ${cluster.rounds.length} rounds, each the single Redis then ` +
      `the Redis Cluster (${cluster.topology}; seed nodes ${cluster.nodes}, seeded the same way in ${cluster.seedSeconds.toFixed(1)} s). ` +
      "The ratio is the median of the rounds' ratios.",
    '',
    row([
      'scenario',
      'single req/s (rounds)',
      'cluster req/s (rounds)',
      'cluster / single (rounds)',
      'median ratio',
      'p99 ms single / cluster (median)',
      'API CPU us/req single / cluster (median)',
      'errors single / cluster',
    ]),
    row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
  ];
  for (const label of [...new Set(cluster.rounds.flatMap((round) => round.cluster.map((run) => run.label)))]) {
    const pairs = clusterPairs(results, label);
    if (pairs.length === 0) {
      lines.push(row([label, '', '', '', 'n/a', '', '', '']));
      continue;
    }
    const ratios = pairs.map(([single, clustered]) => clustered.rps / single.rps);
    lines.push(
      row([
        label,
        pairs.map(([single]) => num(single.rps)).join(', '),
        pairs.map(([, clustered]) => num(clustered.rps)).join(', '),
        ratios.map((r) => `${Math.round(r * 100)}%`).join(', '),
        `${Math.round(median(ratios) * 100)}%`,
        `${median(pairs.map(([single]) => single.p99))} / ${median(pairs.map(([, clustered]) => clustered.p99))}`,
        `${num(median(pairs.map(([single]) => single.cpuMicros ?? 0)))} / ${num(median(pairs.map(([, clustered]) => clustered.cpuMicros ?? 0)))}`,
        `${num(pairs.reduce((n, [single]) => n + single.errors, 0))} / ${num(pairs.reduce((n, [, clustered]) => n + clustered.errors, 0))}`,
      ]),
    );
  }
  for (const lag of cluster.rounds.flatMap((round) => round.clusterLag)) {
    lines.push(
      '',
      `PostgreSQL lag during report_score on the cluster: p50 <= ${lag.lagP50} s, p99 <= ${lag.lagP99} s over ${num(lag.observations)} writes; ` +
        `largest pending ${num(lag.maxPending)}; drained ${lag.drainMs === null ? 'never' : `${lag.drainMs} ms`} after it.`,
    );
  }
  return lines;
}

/** Writes bench-<time>.md/.json and latest.md/.json into the git-ignored folder; returns the paths. */
export function writeReport(dir: string, results: BenchResults, checks: TargetCheck[], markdown: string): string[] {
  mkdirSync(dir, { recursive: true });
  const stamp = results.startedAt.replace(/[:.]/g, '-');
  const json = JSON.stringify({ ...results, targets: checks }, null, 2);
  const files = [`bench-${stamp}.md`, 'latest.md', `bench-${stamp}.json`, 'latest.json'].map((f) => path.join(dir, f));
  writeFileSync(files[0]!, markdown);
  writeFileSync(files[1]!, markdown);
  writeFileSync(files[2]!, json);
  writeFileSync(files[3]!, json);
  return [files[0]!, files[2]!];
}

/** --only ties: report_score on tie-breaking boards against a shared one, list ranks against a page; bytes per entry. */
function tiesSection(results: BenchResults): string[] {
  const figures = results.ties!;
  const lines = [
    '',
    `## Ties: boards of ${num(figures.entries)} entries`,
    '',
    "1 API process, worker running. Each round runs every side once, starting one further along each round; the ratio is the median of the rounds' ratios.",
    '',
    row(['figure', 'measured', 'compared with', 'ratio', 'target', 'result']),
    row(['---', '---', '---', '---:', '---', '---']),
  ];
  lines.push(...ratioRows(tieRatios(figures)));
  for (const [name, memory] of Object.entries(figures.memory)) {
    lines.push(row([`Redis bytes per entry, ${name} board`, `${memory.perEntry.toFixed(1)} B`, keysTaking(memory), '', '', '']));
  }
  return lines;
}

/** --only events: report_score with webhooks wanting player.overtaken against none; deliveries per second. */
function eventsSection(results: BenchResults): string[] {
  const figures = results.events!;
  const lines = [
    '',
    `## Events: player.overtaken on a board of ${num(figures.entries)} entries`,
    '',
    '1 API process, worker running and delivering to a receiver in the bench process (127.0.0.1). ' +
      "Each round runs both sides, starting with the other each round; the ratio is the median of the rounds' ratios. " +
      'The reports draw scores up to twice the seeded ones, so many land among the first 100 and pass players there.',
    '',
    row(['figure', 'measured', 'compared with', 'ratio', 'target', 'result']),
    row(['---', '---', '---', '---:', '---', '---']),
  ];
  lines.push(...ratioRows(eventRatios(figures)));
  const rate = figures.deliverySeconds > 0 ? figures.delivered / figures.deliverySeconds : 0;
  lines.push(
    row([
      'webhook deliveries to a local receiver',
      `${num(Math.round(rate))} /s`,
      `${num(figures.delivered)} in ${figures.deliverySeconds.toFixed(1)} s${figures.drained ? '' : ' (still coming when the bench stopped waiting)'}`,
      '',
      'reported',
      '',
    ]),
  );
  return lines;
}

/** --only review: report_score on a board judging review rules against none. */
function reviewSection(results: BenchResults): string[] {
  const figures = results.review!;
  return [
    '',
    `## Review rules on a board of ${num(figures.entries)} entries`,
    '',
    "1 API process. Each round runs both sides, starting with the other each round; the ratio is the median of the rounds' ratios. " +
      'Every report is judged by all three rules and none is held (docs/review.md).',
    '',
    row(['figure', 'measured', 'compared with', 'ratio', 'target', 'result']),
    row(['---', '---', '---', '---:', '---', '---']),
    ...ratioRows(reviewRatios(figures)),
  ];
}

/** --only history: a board's daily snapshot (time, size) and a page with rank_change against one without. */
function historySection(results: BenchResults): string[] {
  const figures = results.history!;
  const { snapshot } = figures;
  return [
    '',
    `## Rank history on a board of ${num(figures.entries)} entries`,
    '',
    "The snapshot's work unpaced (the worker paces it to ARCHIVE_CPU_SHARE of the wall clock). 1 API process for the pages; " +
      "each round runs both sides, starting with the other each round; the ratio is the median of the rounds' ratios.",
    '',
    row(['figure', 'measured', 'compared with', 'ratio', 'target', 'result']),
    row(['---', '---', '---', '---:', '---', '---']),
    row([
      `daily snapshot of the first ${num(snapshot.entries)} entries`,
      `${snapshot.seconds.toFixed(1)} s`,
      `${num(Math.round(snapshot.entries / snapshot.seconds))} entries/s`,
      '',
      'reported',
      '',
    ]),
    row([
      'PostgreSQL taken by that snapshot',
      `${(snapshot.bytes / 2 ** 20).toFixed(1)} MiB`,
      `${(snapshot.bytes / snapshot.entries).toFixed(0)} B per entry, indexes included`,
      '',
      'reported',
      '',
    ]),
    ...ratioRows(historyRatios(figures)),
  ];
}

/** A row per side compared in alternating rounds: its req/s by round against the first side's, the median ratio, PASS or FAIL. */
function ratioRows(ratios: SideRatio[]): string[] {
  return ratios.map((r) =>
    row([
      r.label,
      `${r.rps.map(num).join(', ')} req/s`,
      `${r.against}: ${r.againstRps.map(num).join(', ')} req/s`,
      `${Math.round(r.ratio * 100)}% (${r.ratios.map((x) => `${Math.round(x * 100)}%`).join(', ')})`,
      `>= ${Math.round(r.minimum * 100)}%`,
      r.ratio >= r.minimum ? 'PASS' : 'FAIL',
    ]),
  );
}

/** Where the machine's cores went during a run, e.g. '0.62 / 0.03 / 0.51 / 0.20 / 0.45 / 0.02 = 1.83'. */
function coresUsed(run: ScenarioRun): string {
  const cores = coresOf(run);
  if (!cores) return '';
  const parts = [cores.server, cores.worker, cores.redis, cores.postgres, cores.driver, cores.other];
  return `${parts.map((part) => part.toFixed(2)).join(' / ')} = ${cores.all.toFixed(2)}`;
}

/** What each of a board's keys takes, e.g. 'scores 97.0 MiB, sortKeys 61.2 MiB'. */
function keysTaking(memory: MemoryFigures): string {
  return Object.entries(memory.bytes)
    .map(([key, bytes]) => `${key} ${(bytes / 1024 / 1024).toFixed(1)} MiB`)
    .join(', ');
}
