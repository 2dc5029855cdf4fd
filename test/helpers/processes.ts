import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import path from 'node:path';
import { projectRoot } from '../../engine/paths.js';
import { nodeFlags } from '../../scripts/node-flags.js';

/** The real API and worker processes, started by tests that kill, restart or multiply them. */
export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  /** Resolves with the exit code once the process has ended. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const running = new Set<ChildProcess>();

/**
 * A port free on every interface (the API listens on all of them), drawn below the system's
 * ephemeral range: a port the system handed out as free may be taken a moment later by the local
 * end of an outgoing connection (to Redis, PostgreSQL, another test's process) before a child
 * process listens on it, which a busy machine running suites side by side did.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const port = LISTEN_PORTS.from + Math.floor(Math.random() * (LISTEN_PORTS.to - LISTEN_PORTS.from));
    const server = createServer();
    const free = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, () => resolve(true));
    });
    if (free) {
      await new Promise((resolve) => server.close(resolve));
      return port;
    }
    if (attempt >= 100) throw new Error('no free port found below the ephemeral range');
  }
}

/** Where freePort draws from: below Linux's default ephemeral range (32768-60999), above the well-known services. */
const LISTEN_PORTS = { from: 20_000, to: 32_000 };

export function spawnEntryPoint(entry: 'api' | 'worker', env: NodeJS.ProcessEnv): ServiceProcess & { exited: Promise<number | null> } {
  // With the launcher's node flags (the API's capped heap): a test sees the memory limits production has.
  return spawnScript(path.join(projectRoot, 'dist', entry, 'main.js'), env, nodeFlags(entry, { ...process.env, ...env }));
}

/** `npm start`'s launcher (API and worker as its children), on a free port, without waiting for it. */
export async function spawnLauncher(env: NodeJS.ProcessEnv = {}): Promise<ServiceProcess & { exited: Promise<number | null> }> {
  return spawnScript(path.join(projectRoot, 'dist', 'scripts', 'start.js'), { PORT: String(await freePort()), ...env });
}

/** One of the `npm run` scripts (dist/scripts/<name>.js), run to its end as a user runs it. */
export async function runScript(name: 'reconcile' | 'rebuild' | 'services-stop', env: NodeJS.ProcessEnv = {}) {
  const script = spawnScript(path.join(projectRoot, 'dist', 'scripts', `${name}.js`), env);
  const code = await script.exited;
  // 'exit' may come before the last of the output: wait for the pipes to close too.
  if (script.child.stdout!.readable || script.child.stderr!.readable) await once(script.child, 'close');
  return { code, stdout: script.stdout(), stderr: script.stderr() };
}

type SpawnedProcess = ServiceProcess & { exited: Promise<number | null>; stdout: () => string; stderr: () => string };

function spawnScript(script: string, env: NodeJS.ProcessEnv, flags: string[] = []): SpawnedProcess {
  const child = spawn(process.execPath, ['--enable-source-maps', ...flags, script], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => ((output += chunk), (stdout += chunk)));
  child.stderr!.on('data', (chunk) => ((output += chunk), (stderr += chunk)));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  return {
    child,
    url: env.PORT ? `http://127.0.0.1:${env.PORT}` : '',
    output: () => output,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export async function startWorker(env: NodeJS.ProcessEnv = {}): Promise<ServiceProcess> {
  const worker = spawnEntryPoint('worker', env);
  await until(() => worker.output().includes('"worker ready"') || worker.child.exitCode !== null, 'the worker to start');
  if (worker.child.exitCode !== null) throw new Error(`worker exited: ${worker.output()}`);
  return worker;
}

export async function startApi(env: NodeJS.ProcessEnv = {}): Promise<ServiceProcess> {
  const port = await freePort();
  const apiProcess = spawnEntryPoint('api', { PORT: String(port), ...env });
  await until(async () => {
    if (apiProcess.child.exitCode !== null) return true;
    return fetch(`${apiProcess.url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
  }, 'the API to start');
  if (apiProcess.child.exitCode !== null) throw new Error(`API exited: ${apiProcess.output()}`);
  return apiProcess;
}

export async function stopAllProcesses(): Promise<void> {
  await Promise.all(
    [...running].map((child) => {
      child.kill('SIGKILL');
      return new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
    }),
  );
}

export { until };
