import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * Every process the bench starts goes through here, each as the leader of its own process group
 * (detached), so stopping one also stops what it forked (node:cluster workers), and nothing the
 * bench started outlives it: not on error, not on Ctrl-C.
 */
export interface Started {
  name: string;
  child: ChildProcess;
  exited: Promise<number | null>;
}

const running = new Set<Started>();

export function startNode(name: string, args: string[], env: NodeJS.ProcessEnv, logFile?: string): Started {
  const log = logFile ? openSync(logFile, 'w') : undefined;
  const output = log ?? 'pipe';
  const child = spawn(process.execPath, args, { env, detached: true, stdio: ['ignore', output, log ?? 'inherit'] });
  if (log !== undefined) closeSync(log); // the child holds its own descriptor
  const started: Started = {
    name,
    child,
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
  };
  running.add(started);
  void started.exited.then(() => running.delete(started));
  return started;
}

/** The process groups of everything the bench runs, itself included. */
export function benchGroups(own: number): Set<number> {
  return new Set([own, ...[...running].map((started) => started.child.pid!)]);
}

/** SIGTERM to the process group, then SIGKILL if it has not exited within the grace period. */
export async function stop(started: Started, graceMs = 10_000): Promise<void> {
  if (started.child.exitCode !== null || started.child.signalCode !== null) return;
  signalGroup(started, 'SIGTERM');
  const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), graceMs).unref());
  if ((await Promise.race([started.exited, timer])) === 'timeout') {
    signalGroup(started, 'SIGKILL');
    await started.exited;
  }
}

export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((started) => stop(started)));
}

function signalGroup(started: Started, signal: NodeJS.Signals): void {
  try {
    process.kill(-started.child.pid!, signal);
  } catch {
    // the group is already gone
  }
}

/** Last resort when the bench itself exits: synchronous, so it runs even from an 'exit' handler. */
export function killAllNow(): void {
  for (const started of running) signalGroup(started, 'SIGKILL');
}

/** Runs a node script to completion and returns its stdout; fails on a non-zero exit. */
export async function runNode(name: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  const started = startNode(name, args, env);
  let stdout = '';
  started.child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const timer = setTimeout(() => void stop(started, 2000), timeoutMs).unref();
  const code = await started.exited;
  clearTimeout(timer);
  if (code !== 0) throw new Error(`${name} exited with code ${code}`);
  return stdout;
}

/** Polls until the URL answers 2xx; fails early when the process serving it has exited. */
export async function waitForHttp(url: string, started: Started, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (started.child.exitCode !== null) throw new Error(`${started.name} exited (code ${started.child.exitCode}) before it answered`);
    const ok = await fetch(url, { signal: AbortSignal.timeout(1000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await sleep(100);
  }
  throw new Error(`${started.name} did not answer ${url} within ${timeoutMs / 1000} s`);
}

/**
 * Waits until the process has forked `children` processes (0: none) and they have all gone quiet:
 * with node:cluster the port answers as soon as the first one listens, while the others are still
 * loading modules and connecting, which would otherwise land in the first scenario's figures.
 */
export async function waitUntilSettled(started: Started, children: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = -1;
  while (Date.now() < deadline) {
    const forked = childPids(started.child.pid!).length;
    const used = cpuSeconds(started);
    if (forked >= children && used - last < 0.02) return; // under 2 ticks in 300 ms: idle
    last = used;
    await sleep(300);
  }
  throw new Error(`${started.name} did not settle within ${timeoutMs / 1000} s`);
}

/** Peak resident memory (VmHWM, MB) of the process and of the processes it forked, the largest one. */
export function peakRssMb(started: Started): number {
  const pid = started.child.pid!;
  const pids = [pid, ...childPids(pid)];
  return Math.max(0, ...pids.map(vmHwmMb));
}

/** Resets the peak (clear_refs 5), so the next peakRssMb covers only what ran in between. */
export function resetPeakRss(started: Started): void {
  const pid = started.child.pid!;
  for (const each of [pid, ...childPids(pid)]) {
    try {
      writeFileSync(`/proc/${each}/clear_refs`, '5');
    } catch {
      // not permitted here: the peak then covers the process's whole life, start-up included
    }
  }
}

/** CPU seconds (user + system) the process and the processes it forked have used so far. */
export function cpuSeconds(started: Started): number {
  const pid = started.child.pid!;
  let ticks = 0;
  for (const each of [pid, ...childPids(pid)]) {
    try {
      const stat = readFileSync(`/proc/${each}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    } catch {
      // exited meanwhile
    }
  }
  return ticks / 100; // USER_HZ
}

function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function vmHwmMb(pid: number): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
