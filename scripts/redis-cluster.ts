import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../engine/paths.js';

/**
 * A throwaway Redis Cluster for tests: 3 masters and 3 replicas from the system's redis-server on
 * loopback ports 7100-7105, AOF everysec, data under .data/cluster/. `start` prints the seed nodes
 * (REDIS_CLUSTER_NODES), `stop` shuts every node down. The bench may ask for masters only and for
 * the persistence of the single Redis it compares with, so both sides do the same work per write.
 */
export interface ClusterOptions {
  /** One replica per master (the default), or masters only (ports 7100-7102). */
  replicas: boolean;
  /** AOF everysec on every node (the default), or no persistence at all. */
  appendonly: boolean;
}
export const CLUSTER_PORTS = [7100, 7101, 7102, 7103, 7104, 7105];
const DIR = path.join(projectRoot, '.data', 'cluster');

const cli = (port: number, ...args: string[]) => spawnSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8' });

export function stopCluster(): void {
  for (const port of CLUSTER_PORTS) cli(port, 'shutdown', 'nosave');
}

export async function startCluster({ replicas, appendonly }: ClusterOptions = { replicas: true, appendonly: true }): Promise<string> {
  stopCluster();
  rmSync(DIR, { recursive: true, force: true });
  const ports = replicas ? CLUSTER_PORTS : CLUSTER_PORTS.slice(0, 3);
  for (const port of ports) {
    const dir = path.join(DIR, String(port));
    mkdirSync(dir, { recursive: true });
    execFileSync('redis-server', [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--daemonize',
      'yes',
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      'nodes.conf',
      '--cluster-node-timeout',
      '2000',
      // A replica may always take over, however long ago it last heard from its master: availability first.
      '--cluster-replica-validity-factor',
      '0',
      ...(appendonly ? ['--appendonly', 'yes', '--appendfsync', 'everysec'] : ['--appendonly', 'no']),
      '--save',
      '',
      '--logfile',
      path.join(dir, 'redis.log'),
      '--pidfile',
      path.join(dir, 'redis.pid'),
    ]);
  }
  await waitUntil(() => ports.every((port) => cli(port, 'ping').stdout.trim() === 'PONG'), 'the nodes to start');
  execFileSync(
    'redis-cli',
    ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', replicas ? '1' : '0', '--cluster-yes'],
    {
      stdio: 'ignore',
    },
  );
  await waitUntil(() => ports.every((port) => /cluster_state:ok/.test(cli(port, 'cluster', 'info').stdout)), 'the cluster to become ok');
  // Every replica must have finished its first sync, or it could not take over from its master.
  if (replicas)
    await waitUntil(() => {
      const roles = CLUSTER_PORTS.map((port) => cli(port, 'info', 'replication').stdout);
      const synced = roles.filter((info) => /role:slave/.test(info));
      return synced.length === 3 && synced.every((info) => /master_link_status:up/.test(info) && /master_sync_in_progress:0/.test(info));
    }, 'the replicas to sync');
  return CLUSTER_PORTS.slice(0, 3)
    .map((port) => `127.0.0.1:${port}`)
    .join(',');
}

async function waitUntil(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

if (process.argv[1]?.endsWith('redis-cluster.js')) {
  const command = process.argv[2];
  if (command === 'start') process.stdout.write(`${await startCluster()}\n`);
  else if (command === 'stop') stopCluster();
  else {
    process.stderr.write('usage: redis-cluster.js start|stop\n');
    process.exit(2);
  }
}
