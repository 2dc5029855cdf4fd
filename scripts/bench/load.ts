import path from 'node:path';
import { projectRoot } from '../../engine/paths.js';
import type { DriveInput, DriveResult } from './drive.js';
import { cpuSnapshot, machineCores, ownProcessGroup, type MachineCores } from './machine-load.js';
import { benchGroups, cpuSeconds, peakRssMb, resetPeakRss, runNode, type Started } from './processes.js';
import type { Scenario, ScenarioContext } from './scenarios.js';

export interface ScenarioRun extends Omit<DriveResult, 'driverCpuSeconds'> {
  label: string;
  method: 'GET' | 'POST';
  processes: number;
  target: 'api' | 'bare';
  /** Peak RSS (MB) of the largest server process during this scenario, warm-up included. */
  rssMb?: number;
  /**
   * CPU time (user + system) the server's processes spent per request, in microseconds: unlike
   * req/s, hardly moved by other work competing for the machine.
   */
  cpuMicros?: number;
  /** Cores' worth of CPU the persistence worker used meanwhile (its periodic jobs compete for the machine too). */
  workerCores?: number;
  /** Cores' worth of CPU other work on the machine used meanwhile (0 on a quiet machine). */
  otherCores?: number;
  /**
   * Where the rest of the machine's cores went meanwhile: the server's processes, Redis, PostgreSQL
   * and the load generator. With the worker and other work they add up to what the machine had.
   */
  cores?: { server: number; redis: number; postgres: number; driver: number };
}

/** Where the machine's cores went during a run, every part and their sum; undefined when not measured. */
export function coresOf(
  run: ScenarioRun,
): Record<'server' | 'worker' | 'redis' | 'postgres' | 'driver' | 'other' | 'all', number> | undefined {
  if (!run.cores) return undefined;
  const parts = { ...run.cores, worker: run.workerCores ?? 0, other: run.otherCores ?? 0 };
  return { ...parts, all: Object.values(parts).reduce((a, b) => a + b, 0) };
}

/** The two reads the comparisons of archived/live seasons and of boards with/without bans alternate. */
export const COMPARED_READS: { label: string; kind: 'third-party-page' | 'record' }[] = [
  { label: 'third-party page of 100, random offset', kind: 'third-party-page' },
  { label: 'player record read, random players', kind: 'record' },
];

/**
 * Each of COMPARED_READS in two states, `rounds` times: state a then b in odd rounds, b then a in
 * even ones, so a drift of the machine falls on both. `run` drives one read in one state.
 */
export async function alternatingRounds(
  rounds: number,
  states: { a: string; b: string },
  run: (read: (typeof COMPARED_READS)[number], state: 'a' | 'b') => Promise<ScenarioRun>,
): Promise<{ label: string; rounds: { a: ScenarioRun; b: ScenarioRun }[] }[]> {
  const reads = COMPARED_READS.map(({ label }) => ({ label, rounds: [] as { a: ScenarioRun; b: ScenarioRun }[] }));
  for (let round = 1; round <= rounds; round++) {
    for (const [i, read] of COMPARED_READS.entries()) {
      process.stderr.write(`  round ${round} of ${rounds}: ${read.label}, ${states.a} and ${states.b}\n`);
      if (round % 2 === 1) {
        const a = await run(read, 'a');
        reads[i]!.rounds.push({ a, b: await run(read, 'b') });
      } else {
        const b = await run(read, 'b');
        reads[i]!.rounds.push({ a: await run(read, 'a'), b });
      }
    }
  }
  return reads;
}

/** Drives one scenario from a fresh load-driver process and returns its figures. */
export async function runScenario(
  port: number,
  scenario: Scenario,
  ctx: ScenarioContext,
  timing: { duration: number; warmup: number; connections: number },
  meta: { processes: number; target: 'api' | 'bare' },
  processes: { server?: Started; worker?: Started } = {},
): Promise<ScenarioRun> {
  const { server, worker } = processes;
  const input: DriveInput = { url: `http://127.0.0.1:${port}`, scenario, ctx, ...timing };
  const env = { ...process.env, BENCH_DRIVE: JSON.stringify(input) };
  const script = path.join(projectRoot, 'dist', 'scripts', 'bench', 'drive.js');
  const timeoutMs = (timing.duration + timing.warmup) * 1000 + 60_000;
  if (server) resetPeakRss(server);
  const own = ownProcessGroup();
  const before = cpuSnapshot(benchGroups(own));
  const serverCpu = server ? cpuSeconds(server) : 0;
  const workerCpu = worker ? cpuSeconds(worker) : 0;
  const started = Date.now();
  const stdout = await runNode(`load driver (${scenario.label})`, [script], env, timeoutMs);
  const machine: MachineCores = machineCores(before, cpuSnapshot(benchGroups(own)));
  const { driverCpuSeconds, ...result } = JSON.parse(stdout.trim().split('\n').pop()!) as DriveResult;
  const run: ScenarioRun = { ...result, label: scenario.label, method: scenario.method, ...meta };
  if (!run.missing) {
    const seconds = (Date.now() - started) / 1000;
    const serverSeconds = server ? cpuSeconds(server) - serverCpu : 0;
    run.otherCores = machine.other;
    if (server) run.rssMb = peakRssMb(server);
    if (server) run.cpuMicros = (serverSeconds * 1e6) / run.sent;
    if (worker) run.workerCores = (cpuSeconds(worker) - workerCpu) / seconds;
    run.cores = { server: serverSeconds / seconds, redis: machine.redis, postgres: machine.postgres, driver: driverCpuSeconds / seconds };
  }
  process.stderr.write(`  ${describe(run)}\n`);
  return run;
}

function describe(run: ScenarioRun): string {
  const head = `${run.target} x${run.processes} ${run.label}:`;
  if (run.missing) return `${head} n/a (endpoint missing)`;
  const probe = run.probe.status >= 300 ? ` (probe answered ${run.probe.status}: ${run.probe.body.slice(0, 120)})` : '';
  const rss = run.rssMb ? `, peak RSS ${Math.round(run.rssMb)} MB` : '';
  const others = run.otherCores ? `, other work ${run.otherCores.toFixed(2)} cores` : '';
  const worker = run.workerCores ? `, worker ${run.workerCores.toFixed(2)} cores` : '';
  const cpu = run.cpuMicros ? `, ${Math.round(run.cpuMicros)} us CPU/req` : '';
  const cores = run.cores
    ? `; cores: Redis ${run.cores.redis.toFixed(2)}, PostgreSQL ${run.cores.postgres.toFixed(2)}, load generator ${run.cores.driver.toFixed(2)}`
    : '';
  return `${head} ${Math.round(run.rps)} req/s, p50 ${run.p50} ms, p99 ${run.p99} ms, ${run.errors} errors${cpu}${rss}${worker}${others}${cores}${probe}`;
}

/** A scenario that could not run because a route it needs is not built yet. */
export function missingRun(scenario: Scenario, meta: { processes: number; target: 'api' | 'bare' }, why: string): ScenarioRun {
  const run: ScenarioRun = {
    missing: true,
    probe: { status: 404, body: why },
    rps: 0,
    rpsMean: 0,
    p50: 0,
    p99: 0,
    errors: 0,
    requests: 0,
    sent: 0,
    label: scenario.label,
    method: scenario.method,
    ...meta,
  };
  process.stderr.write(`  ${describe(run)}: ${why}\n`);
  return run;
}
