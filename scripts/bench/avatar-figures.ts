import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../api/app.js';
import type { Engine } from '../../engine/engine.js';
import { median } from './median.js';

export interface AvatarSizeCost {
  requests: number;
  players: number;
  rounds: number;
  /** Median wall time of the requests when each asks for another size (16-512 px). */
  distinctMs: number;
  /** Median wall time of the same requests, all at 128 px. */
  equalMs: number;
  /** distinctMs / equalMs: within 2x when distinct sizes share a few drawn images. */
  ratio: number;
}

const IN_FLIGHT = 10;

/**
 * What a flood of distinct avatar sizes costs next to the same flood at one size: `requests`
 * requests spread over the same players, once with a distinct size each (evenly over 16-512) and
 * once all at 128 px. Each side runs on an app of its own (a cold avatar cache) in this process,
 * over loopback; the sides alternate for `rounds` rounds and each keeps its median. The player
 * lookups are warmed first, so both sides time the avatar work alone.
 */
export async function avatarSizeCost(
  engine: Engine,
  playerIds: string[],
  options: { requests?: number; rounds?: number } = {},
): Promise<AvatarSizeCost> {
  const requests = options.requests ?? 300;
  const rounds = options.rounds ?? 1;
  const playerOf = (i: number) => playerIds[i % playerIds.length]!;
  const distinct = Array.from(
    { length: requests },
    (_, i) => `/api/v1/users/${playerOf(i)}/avatar.png?size=${16 + Math.floor((i * 497) / requests)}`,
  );
  const equal = Array.from({ length: requests }, (_, i) => `/api/v1/users/${playerOf(i)}/avatar.png?size=128`);

  await timeOnFreshApp(
    engine,
    playerIds.map((id) => `/api/v1/users/${id}/avatar.png?size=16`),
  );
  const distinctMs: number[] = [];
  const equalMs: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    equalMs.push(await timeOnFreshApp(engine, equal));
    distinctMs.push(await timeOnFreshApp(engine, distinct));
  }
  const result = { distinctMs: median(distinctMs), equalMs: median(equalMs) };
  return { requests, players: playerIds.length, rounds, ...result, ratio: result.distinctMs / result.equalMs };
}

/** Milliseconds to answer `paths` (IN_FLIGHT at a time) on a new app; fails on any answer but 200. */
async function timeOnFreshApp(engine: Engine, paths: string[]): Promise<number> {
  const server = createApp(engine).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    let next = 0;
    const started = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < paths.length) {
          const path = paths[next++]!;
          const response = await fetch(base + path);
          await response.arrayBuffer();
          if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
        }
      }),
    );
    return Number(process.hrtime.bigint() - started) / 1e6;
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
