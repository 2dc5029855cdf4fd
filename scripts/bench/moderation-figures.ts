import { performance } from 'node:perf_hooks';
import type { Redis } from 'ioredis';
import type { Engine } from '../../engine/engine.js';
import { leaderboardKeys } from '../../engine/live/keys.js';
import type { Leaderboard } from '../../engine/leaderboards/leaderboard-store.js';
import { chunks } from '../../engine/live/rankings.js';
import type { BenchParts } from './engine-parts.js';
import { BENCH_PREFIX, BOARDS, playerId } from './fixtures.js';
import { alternatingRounds, runScenario, type ScenarioRun } from './load.js';
import type { BenchOptions } from './options.js';
import { createThirdPartyKey } from './third-party-key.js';
import { stop, type Started } from './processes.js';
import type { Scenario, ScenarioContext } from './scenarios.js';
import { startApi, type ServiceSetup } from './service.js';

/** Boards the banned players hold a score on: the main board and copies of it. */
const BOARDS_WITH_THE_PLAYER = 10;
const COPY_PREFIX = 'moderation';
/** The share of the main board's players hidden for the reads with bans. */
const BANNED_SHARE = 0.01;

export interface ModerationFigures {
  entries: number;
  /** Leaderboards of the game the bans walk (the copies, the main board and the game's others). */
  gameBoards: number;
  /** Each ban's and unban's time through the engine (ms): PostgreSQL transaction, audit entry, one script per board. */
  banMs: number[];
  unbanMs: number[];
  /** Players hidden on the main board for the reads with bans. */
  banned: number;
  /** Alternating rounds of the same read with no player banned and with BANNED_SHARE of them banned. */
  reads: { label: string; rounds: { clean: ScenarioRun; banned: ScenarioRun }[] }[];
}

/**
 * Moderation at scale: ban and unban of a player who holds a score on 10 boards of `options.players`
 * entries each (the main board and copies of it), through the engine as the API runs them; then the
 * main board's page of 100 and record read with no bans and with 1% of its players banned, in
 * alternating rounds. The reads draw their players from the 99% never banned (a banned player's
 * record is a 404), so both states answer the same requests. Starts its own API; none may be running.
 */
export async function moderationFigures(
  setup: ServiceSetup,
  options: BenchOptions,
  engine: Engine,
  parts: BenchParts,
  redis: Redis,
  ctx: ScenarioContext,
): Promise<ModerationFigures> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const main = await engine.leaderboards.get(ctx.gameId, BOARDS.main);
  const source = leaderboardKeys(BENCH_PREFIX, main.internalId).scores;
  const copies: Leaderboard[] = [];
  log(`  copying the ${options.players}-entry main board to ${BOARDS_WITH_THE_PLAYER - 1} more boards`);
  for (let i = 1; i < BOARDS_WITH_THE_PLAYER; i++) {
    const { leaderboard } = await engine.leaderboards.put(ctx.gameId, `${COPY_PREFIX}-${i}`, { type: 'individual' }, 'system');
    await redis.copy(source, leaderboardKeys(BENCH_PREFIX, leaderboard.internalId).scores, 'REPLACE');
    copies.push(leaderboard);
  }
  const { total: gameBoards } = await engine.leaderboards.list(ctx.gameId, 0, 1);

  try {
    const samples = options.quick ? 10 : 30;
    const banMs: number[] = [];
    const unbanMs: number[] = [];
    log(`  ${samples} bans and unbans of players on ${BOARDS_WITH_THE_PLAYER} boards (${gameBoards} boards in the game)`);
    for (let i = 0; i < samples; i++) {
      const player = playerId(Math.floor(((i + 0.5) * options.players) / samples));
      let started = performance.now();
      await engine.moderation.ban(ctx.gameId, player, 'bench', 'system');
      banMs.push(performance.now() - started);
      started = performance.now();
      await engine.moderation.unban(ctx.gameId, player, 'system');
      unbanMs.push(performance.now() - started);
    }

    const neverBanned = Math.floor(options.players * (1 - BANNED_SHARE));
    const bannedIds = Array.from({ length: options.players - neverBanned }, (_, i) => playerId(neverBanned + i));
    const moderateAll = async (ids: string[], action: 'ban' | 'unban') => {
      for (const chunk of chunks(ids, 1000)) await Promise.all(chunk.map((id) => parts.rankings.moderate([main], id, action)));
    };
    const api = await startApi(setup, 1);
    try {
      ctx.apiKey ??= await createThirdPartyKey(setup, ctx);
      const reads = await cleanVsBanned(setup, options, ctx, api, neverBanned, {
        ban: () => moderateAll(bannedIds, 'ban'),
        unban: () => moderateAll(bannedIds, 'unban'),
      });
      return { entries: options.players, gameBoards, banMs, unbanMs, banned: bannedIds.length, reads };
    } finally {
      await stop(api);
    }
  } finally {
    for (const copy of copies) await engine.leaderboards.delete(ctx.gameId, copy.id, 'system');
  }
}

/** The reads with no bans against the same reads with the banned players hidden, in alternating rounds. */
async function cleanVsBanned(
  setup: ServiceSetup,
  options: BenchOptions,
  ctx: ScenarioContext,
  server: Started,
  players: number,
  state: { ban: () => Promise<void>; unban: () => Promise<void> },
): Promise<ModerationFigures['reads']> {
  const timing = { duration: options.duration, warmup: options.warmup, connections: options.connections };
  const meta = { processes: 1, target: 'api' as const };
  let banned = false;
  try {
    const reads = await alternatingRounds(options.quick ? 2 : 3, { a: 'no bans', b: '1% banned' }, async ({ label, kind }, side) => {
      const withBans = side === 'b';
      if (withBans !== banned) await (withBans ? state.ban() : state.unban());
      banned = withBans;
      const scenario: Scenario = {
        label: `${label}, ${withBans ? '1% banned' : 'no bans'}`,
        kind,
        method: 'GET',
        board: BOARDS.main,
        players,
      };
      return runScenario(setup.apiPort, scenario, ctx, timing, meta, { server });
    });
    return reads.map(({ label, rounds }) => ({ label, rounds: rounds.map(({ a, b }) => ({ clean: a, banned: b })) }));
  } finally {
    if (banned) await state.unban();
  }
}
