import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Cluster, Redis, type RedisOptions, type Result } from 'ioredis';
import { keysUnder } from './keys.js';
import { luaDir } from '../paths.js';

type ScriptArg = string | number;

/** The engine's Lua scripts (engine/live/scripts/<name>[-<number of keys>].lua), typed for callers. */
declare module 'ioredis' {
  interface RedisCommander<Context> {
    reportScore(...args: ScriptArg[]): Result<[string, number, number, number, number, number] | [number], Context>;
    mergeScores(...args: ScriptArg[]): Result<number, Context>;
    setClans(...args: ScriptArg[]): Result<number, Context>;
    reconcileClan(...args: ScriptArg[]): Result<number, Context>;
    readRange(...args: ScriptArg[]): Result<(string | number)[] | -1, Context>;
    readAround(...args: ScriptArg[]): Result<(string | number)[] | null | -1, Context>;
    scoresOf(...args: ScriptArg[]): Result<(string | number)[] | -1, Context>;
    persistClaim(...args: ScriptArg[]): Result<[string[], string[], string], Context>;
    resetSeason(...args: ScriptArg[]): Result<number[], Context>;
    persistAck(...args: ScriptArg[]): Result<number, Context>;
    markPending(...args: ScriptArg[]): Result<number, Context>;
    dropIdlePending(...args: ScriptArg[]): Result<number, Context>;
    compareAndSet(...args: ScriptArg[]): Result<number, Context>;
    moderateEntry(...args: ScriptArg[]): Result<[number, number], Context>;
    markPrepared(...args: ScriptArg[]): Result<number, Context>;
    scheduleResets(...args: ScriptArg[]): Result<number | null, Context>;
    readSeasons(...args: ScriptArg[]): Result<(string | number)[], Context>;
    requestRebuild(...args: ScriptArg[]): Result<string, Context>;
  }
}

/** A single Redis or a Redis Cluster: the engine runs unchanged on either. */
export type RedisClient = Redis | Cluster;

/** Where Redis is: a URL, or the seed nodes of a cluster. */
export type RedisTarget = string | { cluster: { host: string; port: number }[] };

export interface RedisRole {
  /**
   * 'request': fail fast while Redis is unreachable, so an API request answers 503 instead of
   * hanging; 'producer': the same, for queue adds; 'queue' and 'subscriber': retry forever (BullMQ's
   * requirement for workers; a subscription must come back by itself).
   */
  role: 'request' | 'producer' | 'queue' | 'subscriber';
}

export function createRedis(target: RedisTarget, { role }: RedisRole): RedisClient {
  const failFast = role === 'request' || role === 'producer';
  const options: RedisOptions = {
    maxRetriesPerRequest: failFast ? 1 : null,
    connectionName: `leaderboard:${role}`,
  };
  const client =
    typeof target === 'string'
      ? new Redis(target, {
          ...options,
          enableAutoPipelining: role === 'request',
          enableOfflineQueue: !failFast,
          retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
        })
      : new Cluster(target.cluster, {
          enableAutoPipelining: role === 'request',
          enableOfflineQueue: !failFast,
          clusterRetryStrategy: (attempt) => Math.min(attempt * 100, 1000),
          slotsRefreshTimeout: 2000,
          redisOptions: options,
        });
  // Connection errors surface through commands (503) and readiness; an unhandled 'error' event
  // would otherwise crash the process during an outage.
  client.on('error', () => undefined);
  if (role !== 'subscriber') defineScripts(client);
  return client;
}

/** The Redis of a configuration: REDIS_CLUSTER_NODES when set, else REDIS_URL. */
export function redisTarget(config: { redisUrl: string; redisClusterNodes: { host: string; port: number }[] | undefined }): RedisTarget {
  return config.redisClusterNodes ? { cluster: config.redisClusterNodes } : config.redisUrl;
}

/** Resolves once the client is connected (or rejects after the timeout). */
export async function waitForRedis(client: RedisClient, timeoutMs = 10_000): Promise<void> {
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

/**
 * The keys under a prefix, a SCAN batch at a time, with the node that holds them: every master of a
 * cluster in turn (a cluster node answers only for its own slots).
 */
async function* keysWithPrefix(client: RedisClient, prefix: string): AsyncGenerator<{ node: Redis; keys: string[] }> {
  for (const node of client instanceof Cluster ? client.nodes('master') : [client]) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', keysUnder(prefix), 'COUNT', 10_000);
      if (keys.length > 0) yield { node, keys };
      cursor = next;
    } while (cursor !== '0');
  }
}

/**
 * Removes every key under a prefix (the bench and the test suite reset their own this way); one key
 * per UNLINK, since on a cluster node one call's keys must share a slot.
 */
export async function unlinkKeysWithPrefix(client: RedisClient, prefix: string): Promise<void> {
  for await (const { node, keys } of keysWithPrefix(client, prefix)) await Promise.all(keys.map((key) => node.unlink(key)));
}

/** Whether any key under the prefix exists, on any master. */
export async function hasKeysWithPrefix(client: RedisClient, prefix: string): Promise<boolean> {
  for await (const _batch of keysWithPrefix(client, prefix)) return true;
  return false;
}

let scriptSources: { name: string; numberOfKeys: number | undefined; lua: string }[] | undefined;

function loadScriptSources() {
  scriptSources ??= readdirSync(luaDir)
    .filter((file) => file.endsWith('.lua'))
    .map((file) => {
      // <command>-<number of keys>.lua; <command>.lua when the caller passes the number of keys first.
      const match = /^([A-Za-z]+)(?:-(\d+))?\.lua$/.exec(file);
      if (!match) throw new Error(`Lua script ${file} must be named <command>[-<number of keys>].lua`);
      return { name: match[1]!, numberOfKeys: match[2] === undefined ? undefined : Number(match[2]), lua: withIncludes(file) };
    });
  return scriptSources;
}

/** Replaces `-- @include "name"` lines with engine/live/scripts/includes/name.lua. */
function withIncludes(file: string): string {
  const source = readFileSync(path.join(luaDir, file), 'utf8');
  return source.replace(/^-- @include "([a-z-]+)"$/gm, (_, name: string) =>
    readFileSync(path.join(luaDir, 'includes', `${name}.lua`), 'utf8'),
  );
}

/** The full text of one engine script, includes expanded (for measurements and tooling). */
export function scriptSource(name: string): { numberOfKeys: number | undefined; lua: string } {
  const script = loadScriptSources().find((candidate) => candidate.name === name);
  if (!script) throw new Error(`no Lua script named ${name}`);
  return script;
}

function defineScripts(client: RedisClient): void {
  for (const { name, numberOfKeys, lua } of loadScriptSources()) {
    client.defineCommand(name, { numberOfKeys, lua });
  }
}
