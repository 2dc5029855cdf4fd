import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { projectRoot } from '../engine/paths.js';
import { migrate } from '../engine/db.js';
import { ensureServices } from './services.js';
import { nodeFlags } from './node-flags.js';

/**
 * `npm start`: finds or starts Redis and PostgreSQL, applies migrations, then runs the API and the
 * worker as separate child processes (`npm run api` / `npm run worker` run one of them).
 */
const ENTRY_POINTS: Record<string, string> = {
  api: path.join(projectRoot, 'dist', 'api', 'main.js'),
  worker: path.join(projectRoot, 'dist', 'worker', 'main.js'),
};

async function main(): Promise<void> {
  const roles = process.argv.slice(2);
  const selected = roles.length > 0 ? roles : ['api', 'worker'];
  for (const role of selected) {
    if (!ENTRY_POINTS[role]) throw new Error(`Unknown process '${role}'; use api and/or worker.`);
  }
  const services = await ensureServices('leaderboard');
  const env = { ...process.env, REDIS_URL: services.redisUrl, DATABASE_URL: services.databaseUrl };
  await migrate(services.databaseUrl);

  const children: ChildProcess[] = selected.map((role) =>
    spawn(process.execPath, ['--enable-source-maps', ...nodeFlags(role as 'api' | 'worker'), ENTRY_POINTS[role]!], { env, stdio: 'inherit' }),
  );
  let stopping = false;
  const stopAll = (signal: NodeJS.Signals) => {
    stopping = true;
    for (const child of children) if (child.exitCode === null) child.kill(signal);
  };
  process.on('SIGINT', () => stopAll('SIGTERM'));
  process.on('SIGTERM', () => stopAll('SIGTERM'));
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) =>
          child.once('exit', (code) => {
            if (!stopping) {
              process.exitCode = code ?? 1;
              stopAll('SIGTERM'); // one part died: stop the rest rather than run half a service
            }
            resolve();
          }),
        ),
    ),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
