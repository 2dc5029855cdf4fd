import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Redis, type RedisOptions, type Result } from 'ioredis';
import { luaDir } from './paths.js';

type ScriptArg = string | number;

/** The engine's Lua scripts (engine/scripts/<name>-<number of keys>.lua), typed for callers. */
declare module 'ioredis' {
  interface RedisCommander<Context> {
    reportScore(...args: ScriptArg[]): Result<[string, number, number, number, number], Context>;
    mergeScores(...args: ScriptArg[]): Result<number, Context>;
    setClans(...args: ScriptArg[]): Result<number, Context>;
    reconcileClan(...args: ScriptArg[]): Result<number, Context>;
    readRange(...args: ScriptArg[]): Result<(string | number)[], Context>;
    readAround(...args: ScriptArg[]): Result<(string | number)[] | null, Context>;
    scoresOf(...args: ScriptArg[]): Result<(string | number)[], Context>;
    persistClaim(...args: ScriptArg[]): Result<[string[], string[]], Context>;
    persistAck(...args: ScriptArg[]): Result<number, Context>;
  }
}

export type RedisClient = Redis;

export interface RedisRole {
  /**
   * 'request': fail fast while Redis is unreachable, so an API request answers 503 instead of
   * hanging. 'queue': BullMQ's requirement, retry forever.
   */
  role: 'request' | 'producer' | 'queue' | 'subscriber';
}

export function createRedis(url: string, { role }: RedisRole): Redis {
  const options: RedisOptions = {
    lazyConnect: false,
    enableAutoPipelining: role === 'request',
    maxRetriesPerRequest: role === 'queue' || role === 'subscriber' ? null : 1,
    enableOfflineQueue: role !== 'request' && role !== 'producer',
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
    connectionName: `leaderboard:${role}`,
  };
  const client = new Redis(url, options);
  // Connection errors surface through commands (503) and readiness; an unhandled 'error' event
  // would otherwise crash the process during an outage.
  client.on('error', () => undefined);
  if (role !== 'subscriber') defineScripts(client);
  return client;
}

/** Resolves once the client is connected (or rejects after the timeout). */
export async function waitForRedis(client: Redis, timeoutMs = 10_000): Promise<void> {
  if (client.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error('Redis did not become ready in time'));
    }, timeoutMs);
    const onReady = () => {
      cleanup();
      resolve();
    };
    const cleanup = () => {
      clearTimeout(timer);
      client.off('ready', onReady);
    };
    client.on('ready', onReady);
  });
}

let scriptSources: { name: string; numberOfKeys: number; lua: string }[] | undefined;

function loadScriptSources() {
  scriptSources ??= readdirSync(luaDir)
    .filter((file) => file.endsWith('.lua'))
    .map((file) => {
      const match = /^(.+)-(\d+)\.lua$/.exec(file);
      if (!match) throw new Error(`Lua script ${file} must be named <command>-<number of keys>.lua`);
      return { name: match[1]!, numberOfKeys: Number(match[2]), lua: withIncludes(file) };
    });
  return scriptSources;
}

/** Replaces `-- @include "name"` lines with engine/scripts/includes/name.lua. */
function withIncludes(file: string): string {
  const source = readFileSync(path.join(luaDir, file), 'utf8');
  return source.replace(/^-- @include "([a-z-]+)"$/gm, (_, name: string) =>
    readFileSync(path.join(luaDir, 'includes', `${name}.lua`), 'utf8'),
  );
}

function defineScripts(client: Redis): void {
  for (const { name, numberOfKeys, lua } of loadScriptSources()) {
    client.defineCommand(name, { numberOfKeys, lua });
  }
}
