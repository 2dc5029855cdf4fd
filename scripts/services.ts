import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { createConnection } from 'node:net';
import path from 'node:path';
import { projectRoot } from '../engine/paths.js';
import { ensureDatabase } from '../engine/db.js';

/**
 * Finds Redis and PostgreSQL for this machine: REDIS_URL / DATABASE_URL when set; else the default
 * local ports; else private servers started from the system's binaries under .data/ (installing
 * Debian's packages first when they are missing and this user may). Creates the database if needed.
 */
export interface Services {
  redisUrl: string;
  databaseUrl: string;
}

const DATA_DIR = path.join(projectRoot, '.data');
const PRIVATE_REDIS_PORT = 6390;
const PRIVATE_POSTGRES_PORT = 5440;

export async function ensureServices(
  databaseName: string,
  env: NodeJS.ProcessEnv = process.env,
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<Services> {
  const forcePrivate = env.LEADERBOARD_PRIVATE_SERVICES === '1';
  const redisUrl = env.REDIS_URL ?? (await findOrStartRedis(forcePrivate, log));
  const databaseUrl = env.DATABASE_URL ?? `${await findOrStartPostgres(forcePrivate, log)}/${encodeURIComponent(databaseName)}`;
  await ensureDatabase(databaseUrl);
  return { redisUrl, databaseUrl };
}

async function findOrStartRedis(forcePrivate: boolean, log: (line: string) => void): Promise<string> {
  if (!forcePrivate && (await redisAnswers(6379))) return 'redis://127.0.0.1:6379';
  const url = `redis://127.0.0.1:${PRIVATE_REDIS_PORT}`;
  if (await redisAnswers(PRIVATE_REDIS_PORT)) return url;
  ensurePackages('redis-server', ['redis-server'], log);
  const dir = path.join(DATA_DIR, 'redis');
  mkdirSync(dir, { recursive: true });
  log(
    `Starting a private Redis on port ${PRIVATE_REDIS_PORT} (data in ${dir}, AOF everysec; it keeps running until npm run services:stop)`,
  );
  startRedisServer(PRIVATE_REDIS_PORT, dir);
  await waitFor(() => redisAnswers(PRIVATE_REDIS_PORT), 'the private Redis');
  return url;
}

/**
 * Starts a daemonized Redis on 127.0.0.1 with its data (AOF, appendfsync everysec), pid file and log in
 * `dir`: the durability the service documents. Returns once it is started, not once it answers.
 */
export function startRedisServer(port: number, dir: string): void {
  execFileSync('redis-server', [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--appendonly',
    'yes',
    '--appendfsync',
    'everysec',
    '--save',
    '',
    '--daemonize',
    'yes',
    '--pidfile',
    path.join(dir, 'redis.pid'),
    '--logfile',
    path.join(dir, 'redis.log'),
  ]);
}

async function findOrStartPostgres(forcePrivate: boolean, log: (line: string) => void): Promise<string> {
  if (!forcePrivate && (await portAnswers(5432))) return 'postgres://postgres@127.0.0.1:5432';
  const url = `postgres://postgres@127.0.0.1:${PRIVATE_POSTGRES_PORT}`;
  if (await portAnswers(PRIVATE_POSTGRES_PORT)) return url;
  let bin = postgresBinDir();
  if (!bin) {
    ensurePackages('postgresql', ['postgresql'], log);
    bin = postgresBinDir();
    if (!bin) throw new Error('PostgreSQL binaries not found after installing; set DATABASE_URL instead.');
  }
  const { asUser, reachable, dir } = privatePostgres();
  const run = (command: string, args: string[]) => {
    const [file, ...rest] = [...asUser, path.join(bin!, command), ...args];
    execFileSync(file!, rest, { stdio: 'pipe', cwd: '/' });
  };
  mkdirSync(DATA_DIR, { recursive: true });
  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    log(`Creating a private PostgreSQL cluster in ${dir}`);
    mkdirSync(dir, { recursive: true });
    if (asUser.length > 0) {
      const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
      chownSync(dir, uid, gid);
      if (reachable) chmodSync(DATA_DIR, 0o755);
    }
    run('initdb', ['-D', dir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
  }
  log(`Starting a private PostgreSQL on port ${PRIVATE_POSTGRES_PORT} (data in ${dir}; it keeps running until npm run services:stop)`);
  run('pg_ctl', [
    '-D',
    dir,
    '-l',
    path.join(dir, 'server.log'),
    '-o',
    `-p ${PRIVATE_POSTGRES_PORT} -k /tmp -c listen_addresses=127.0.0.1`,
    '-w',
    'start',
  ]);
  await waitFor(() => portAnswers(PRIVATE_POSTGRES_PORT), 'the private PostgreSQL');
  return url;
}

function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')));
  versions.sort((a, b) => Number(b) - Number(a));
  return versions[0] && path.join(root, versions[0], 'bin');
}

function ensurePackages(binary: string, packages: string[], log: (line: string) => void): void {
  if (binary !== 'postgresql' && spawnSync('which', [binary]).status === 0) return;
  const mayInstall = process.env.LEADERBOARD_AUTO_INSTALL !== '0';
  const sudo = process.getuid?.() === 0 ? [] : spawnSync('sudo', ['-n', 'true']).status === 0 ? ['sudo', '-n'] : undefined;
  if (!mayInstall || !sudo || spawnSync('which', ['apt-get']).status !== 0) {
    throw new Error(`${packages.join(', ')} is not installed and cannot be installed here; install it or set REDIS_URL / DATABASE_URL.`);
  }
  log(`Installing ${packages.join(', ')} from Debian's packages`);
  const apt = (args: string[]) => {
    const [file, ...rest] = [...sudo, 'apt-get', ...args];
    execFileSync(file!, rest, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  };
  apt(['update', '-qq']);
  apt(['install', '-y', '-qq', ...packages]);
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.setTimeout(500);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

function redisAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let reply = '';
    socket.setTimeout(500);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      socket.destroy();
      resolve(reply.startsWith('+PONG') || reply.startsWith('-NOAUTH'));
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${what} did not start within ${timeoutMs / 1000} s`);
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}

/**
 * Where the private PostgreSQL lives. It refuses to run as root: as root, it runs as the system's
 * postgres user, whose data folder must be reachable by it (a checkout inside a private folder is
 * not, and then the data goes to /var/tmp instead of .data/).
 */
function privatePostgres(): { asUser: string[]; reachable: boolean; dir: string } {
  const asUser = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
  const reachable = asUser.length === 0 || spawnSync(asUser[0]!, [...asUser.slice(1), 'test', '-x', projectRoot]).status === 0;
  const dir = reachable ? path.join(DATA_DIR, 'postgres') : path.join('/var/tmp', `leaderboard-postgres-${hashOf(projectRoot)}`);
  return { asUser, reachable, dir };
}

/**
 * Stops the private Redis and PostgreSQL this checkout started (`npm run services:stop`), found by
 * the pid files in its data folders: a server it did not start (the system's, another checkout's)
 * is left alone even when it listens on the same port. Their data stays for the next start.
 */
export async function stopPrivateServices(log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): Promise<void> {
  await stopPrivateRedis(log);
  stopPrivatePostgres(log);
}

async function stopPrivateRedis(log: (line: string) => void): Promise<void> {
  const pidFile = path.join(DATA_DIR, 'redis', 'redis.pid');
  const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) : NaN;
  // The pid file outlives a crash, and its number may belong to another process by now.
  const ours = () => {
    const command = spawnSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8' }).stdout;
    return command.includes('redis-server') && command.includes(`:${PRIVATE_REDIS_PORT}`);
  };
  if (!Number.isInteger(pid) || !ours()) {
    log('No private Redis of this checkout is running.');
    return;
  }
  process.kill(pid, 'SIGTERM'); // Redis's clean shutdown: the AOF is flushed, the pid file removed
  await waitFor(async () => !ours(), 'the private Redis to stop');
  log(`Stopped the private Redis on port ${PRIVATE_REDIS_PORT} (pid ${pid}).`);
}

function stopPrivatePostgres(log: (line: string) => void): void {
  const bin = postgresBinDir();
  const { asUser, dir } = privatePostgres();
  // pg_ctl finds the server by the pid file in its data folder (postmaster.pid) and checks it is alive.
  const pgCtl = (args: string[]) => {
    const [file, ...rest] = [...asUser, path.join(bin!, 'pg_ctl'), '-D', dir, ...args];
    return spawnSync(file!, rest, { encoding: 'utf8', cwd: '/' });
  };
  if (!bin || !existsSync(path.join(dir, 'postmaster.pid')) || pgCtl(['status']).status !== 0) {
    log('No private PostgreSQL of this checkout is running.');
    return;
  }
  const stopped = pgCtl(['-m', 'fast', '-w', 'stop']);
  if (stopped.status !== 0) throw new Error(`pg_ctl could not stop the private PostgreSQL: ${stopped.stderr.trim()}`);
  log(`Stopped the private PostgreSQL on port ${PRIVATE_POSTGRES_PORT} (data in ${dir}).`);
}
