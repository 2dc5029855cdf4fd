import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU used by other work on the machine while a scenario runs: every process outside the bench's
 * own process groups, Redis and PostgreSQL (which the service uses). On a shared 2-core machine
 * this says whether a figure was measured on a quiet machine or not.
 */
const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux the service targets

interface Snapshot {
  at: number;
  ticks: Map<number, number>;
}

export function cpuSnapshot(ownGroups: Set<number>): Snapshot {
  const ticks = new Map<number, number>();
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
    if (ownGroups.has(Number(fields[2])) || comm === 'redis-server' || comm === 'postgres') continue;
    ticks.set(Number(entry), Number(fields[11]) + Number(fields[12]));
  }
  return { at: Date.now(), ticks };
}

/** Cores' worth of CPU the other processes used between two snapshots. */
export function otherCores(before: Snapshot, after: Snapshot): number {
  let used = 0;
  for (const [pid, ticks] of after.ticks) used += ticks - (before.ticks.get(pid) ?? 0);
  const seconds = (after.at - before.at) / 1000;
  return seconds > 0 ? used / TICKS_PER_SECOND / seconds : 0;
}

export function ownProcessGroup(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}
