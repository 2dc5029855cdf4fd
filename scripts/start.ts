import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { projectRoot } from '../engine/paths.js';
import { migrate } from '../engine/db.js';
import { createLogger } from '../engine/logger.js';
import { RestartPolicy } from '../engine/restart-policy.js';
import { ensureServices } from './services.js';
import { nodeFlags } from './node-flags.js';

/**
 * `npm start`: finds or starts Redis and PostgreSQL, applies migrations, then runs the API and the
 * worker as separate child processes (`npm run api` / `npm run worker` run one of them). A child
 * that dies is started again after a pause (RestartPolicy); one that keeps crashing makes the
 * launcher stop the others and exit 1. SIGTERM or SIGINT stops the children, then the launcher; a
 * launcher that is killed outright closes the children's IPC channel, and they stop themselves.
 */
type Role = 'api' | 'worker';

const ENTRY_POINTS: Record<Role, string> = {
  api: path.join(projectRoot, 'dist', 'api', 'main.js'),
  worker: path.join(projectRoot, 'dist', 'worker', 'main.js'),
};

async function main(): Promise<void> {
  const roles = process.argv.slice(2);
  const selected = roles.length > 0 ? roles : ['api', 'worker'];
  for (const role of selected) {
    if (!(role in ENTRY_POINTS)) throw new Error(`Unknown process '${role}'; use api and/or worker.`);
  }
  const services = await ensureServices('leaderboard');
  const env = { ...process.env, REDIS_URL: services.redisUrl, DATABASE_URL: services.databaseUrl };
  await migrate(services.databaseUrl);

  const logger = createLogger('info').child({ process: 'launcher' });
  const running = new Set<ChildProcess>();
  const pauses = new Set<NodeJS.Timeout>();
  let stopping = false;
  let allStopped!: () => void;
  const stopped = new Promise<void>((resolve) => (allStopped = resolve));

  const stopAll = () => {
    stopping = true;
    for (const pause of pauses) clearTimeout(pause);
    for (const child of running) child.kill('SIGTERM');
    if (running.size === 0) allStopped();
  };

  const start = (role: Role, policy: RestartPolicy) => {
    // Its own process group: a Ctrl-C in the terminal reaches the launcher only, which then stops
    // the children itself (rather than racing them and taking their exit for a crash). The IPC
    // channel ties each child to the launcher: it stops itself when the channel closes, so a
    // launcher killed without a chance to stop its children leaves none running.
    const child = spawn(process.execPath, ['--enable-source-maps', ...nodeFlags(role), ENTRY_POINTS[role]], {
      env,
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
      detached: true,
    });
    running.add(child);
    logger.info({ role, childPid: child.pid }, `${role} started`);
    child.once('exit', (code, signal) => {
      running.delete(child);
      if (stopping) {
        if (running.size === 0) allStopped();
        return;
      }
      const cause = signal ? `signal ${signal}` : `exit code ${code}`;
      const pause = policy.afterCrash();
      if (pause === undefined) {
        logger.error({ role, code, signal }, `${role} died (${cause}), ${RestartPolicy.limit}: giving up and stopping everything`);
        process.exitCode = 1;
        stopAll();
        return;
      }
      logger.error({ role, code, signal, restartInMs: pause }, `${role} died (${cause}); starting it again in ${pause} ms`);
      const timer = setTimeout(() => {
        pauses.delete(timer);
        start(role, policy);
      }, pause);
      pauses.add(timer);
    });
  };

  // SIGHUP too (the terminal closed): in their own process group, the children would not get it.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stopAll);
  for (const role of selected as Role[]) start(role, new RestartPolicy());
  await stopped;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
