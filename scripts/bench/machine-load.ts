import { readdirSync, readFileSync } from 'node:fs';

/**
 * Where the machine's CPU went while a scenario ran, beside the API's own: Redis, PostgreSQL (every
 * backend, the checkpointer and the WAL writer) and every process outside the bench's own process
 * groups. On a shared 2-core machine this says how much of the cores the API could have had, and
 * whether a figure was measured on a quiet machine (docs/performance.md).
 */
const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux the service targets

type Owner = 'redis' | 'postgres' | 'other';

interface Snapshot {
  at: number;
  ticks: Map<number, { owner: Owner; ticks: number }>;
}

/** Cores' worth of CPU between two snapshots, by owner. */
export type MachineCores = Record<Owner, number>;

export function cpuSnapshot(ownGroups: Set<number>): Snapshot {
  const ticks = new Map<number, { owner: Owner; ticks: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the command: state(0) ppid(1) pgrp(2) ... utime(11) stime(12)
    if (ownGroups.has(Number(fields[2]))) continue;
    const owner: Owner = comm === 'redis-server' ? 'redis' : comm === 'postgres' ? 'postgres' : 'other';
    ticks.set(Number(entry), { owner, ticks: Number(fields[11]) + Number(fields[12]) });
  }
  return { at: Date.now(), ticks };
}

/** What Redis, PostgreSQL and the other processes used between two snapshots. */
export function machineCores(before: Snapshot, after: Snapshot): MachineCores {
  const used: MachineCores = { redis: 0, postgres: 0, other: 0 };
  for (const [pid, { owner, ticks }] of after.ticks) used[owner] += ticks - (before.ticks.get(pid)?.ticks ?? 0);
  const seconds = (after.at - before.at) / 1000;
  for (const owner of ['redis', 'postgres', 'other'] as const) used[owner] = seconds > 0 ? used[owner] / TICKS_PER_SECOND / seconds : 0;
  return used;
}

export function ownProcessGroup(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}
