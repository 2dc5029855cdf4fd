import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Headless Godot 3 for the engine-client tests: Debian's godot3-server package (a build with no
 * display or audio), installed on first use as Chromium is. Never a downloaded engine build.
 */
const GODOT = '/usr/bin/godot3-server';

function ensureGodot(): void {
  if (existsSync(GODOT)) return;
  if (process.getuid?.() !== 0) {
    throw new Error(`${GODOT} is missing: install Debian's godot3-server package (apt-get install -y godot3-server) as root.`);
  }
  const run = (args: string[]) =>
    execFileSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  run(['update']);
  run(['install', '-y', 'godot3-server']);
}

export interface GodotRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Every stdout line that is a JSON object, in order. */
  lines: Record<string, unknown>[];
}

/**
 * Runs a Godot project's main scene and collects what it printed. The engine keeps its user data
 * and settings under HOME/XDG folders, so the child gets a throwaway HOME and nothing of ours.
 */
export async function runGodotProject(projectDir: string, env: Record<string, string>, timeoutMs = 60_000): Promise<GodotRun> {
  ensureGodot();
  const home = mkdtempSync(path.join(tmpdir(), 'godot-home-'));
  try {
    return await new Promise<GodotRun>((resolve) => {
      execFile(
        GODOT,
        ['--path', projectDir],
        {
          timeout: timeoutMs,
          killSignal: 'SIGKILL',
          env: {
            PATH: process.env.PATH ?? '/usr/bin:/bin',
            HOME: home,
            XDG_DATA_HOME: path.join(home, 'data'),
            XDG_CONFIG_HOME: path.join(home, 'config'),
            XDG_CACHE_HOME: path.join(home, 'cache'),
            ...env,
          },
        },
        (error, stdout, stderr) => {
          const exitCode = error ? (typeof error.code === 'number' ? error.code : null) : 0;
          resolve({ exitCode, stdout, stderr, lines: jsonLines(stdout) });
        },
      );
    });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
