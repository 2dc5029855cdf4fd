import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Cluster, Redis, Result } from 'ioredis';
import { luaDir } from '../paths.js';

type ScriptArg = string | number;

/** The engine's Lua scripts (engine/live/scripts/<name>[-<number of keys>].lua), typed for callers. */
declare module 'ioredis' {
  interface RedisCommander<Context> {
    reportScore(
      ...args: ScriptArg[]
    ): Result<
      [string, number, number, number, number, number, string, string, number | string, number?, string?, string?] | [number],
      Context
    >;
    heldView(...args: ScriptArg[]): Result<[] | [string, number, number], Context>;
    restoreHeld(...args: ScriptArg[]): Result<number, Context>;
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
    pendingCount(...args: ScriptArg[]): Result<number, Context>;
    dropIdlePending(...args: ScriptArg[]): Result<number, Context>;
    compareAndSet(...args: ScriptArg[]): Result<number, Context>;
    moderateEntry(...args: ScriptArg[]): Result<[number, number, string[]?], Context>;
    markModerated(...args: ScriptArg[]): Result<number, Context>;
    markPrepared(...args: ScriptArg[]): Result<number, Context>;
    scheduleResets(...args: ScriptArg[]): Result<number | null, Context>;
    readSeasons(...args: ScriptArg[]): Result<(string | number)[], Context>;
    readBestRank(...args: ScriptArg[]): Result<string | null, Context>;
    requestRebuild(...args: ScriptArg[]): Result<string, Context>;
    setLayout(...args: ScriptArg[]): Result<number, Context>;
    scanHidden(...args: ScriptArg[]): Result<(string | number)[], Context>;
    reserveReports(...args: ScriptArg[]): Result<number, Context>;
    releaseReports(...args: ScriptArg[]): Result<number, Context>;
    seatOf(...args: ScriptArg[]): Result<[number, number, number], Context>;
    enterSeason(...args: ScriptArg[]): Result<number[], Context>;
    restoreSeats(...args: ScriptArg[]): Result<number, Context>;
    readGroup(...args: ScriptArg[]): Result<[] | [string, number, number, (string | number)[], string[]], Context>;
    listGroups(...args: ScriptArg[]): Result<[number, (string | number)[]], Context>;
    endedGroup(...args: ScriptArg[]): Result<[] | [number, number, (string | number)[], string[]], Context>;
    applyGroupMoves(...args: ScriptArg[]): Result<number, Context>;
  }
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

/** Registers every script as a command of the client (ioredis defineCommand). */
export function defineScripts(client: Redis | Cluster): void {
  for (const { name, numberOfKeys, lua } of loadScriptSources()) {
    client.defineCommand(name, { numberOfKeys, lua });
  }
}
