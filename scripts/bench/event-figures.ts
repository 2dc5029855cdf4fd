import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Engine } from '../../engine/engine.js';
import type { BenchParts } from './engine-parts.js';
import { BOARDS } from './fixtures.js';
import type { BenchOptions } from './options.js';
import { REPORT_LABEL, type Scenario, type ScenarioContext } from './scenarios.js';
import { seedTiedBoard } from './seed.js';
import type { ServiceSetup } from './service.js';
import { compareSides, sideRatios, type SideComparison, type SideRatio } from './rounds.js';

/** A board of every player with notify_top 100, watched by WEBHOOKS webhooks wanting player.overtaken. */
export const NOTIFY_BOARD = 'notify';
const NOTIFY_TOP = 100;
const WEBHOOKS = 3;
const OVERTAKEN_LABEL = `${REPORT_LABEL}, notify_top ${NOTIFY_TOP} and ${WEBHOOKS} webhooks wanting player.overtaken`;
/** The deliveries are counted until none has come for this long (or DRAIN_LIMIT_MS have passed). */
const QUIET_MS = 5000;
const DRAIN_LIMIT_MS = 180_000;

export interface EventFigures {
  entries: number;
  comparison: SideComparison;
  /** Deliveries the local receiver answered 2xx, and the seconds from the first to the last. */
  delivered: number;
  deliverySeconds: number;
  /** Whether the deliveries stopped coming before DRAIN_LIMIT_MS (else the figure is a rate while they still came). */
  drained: boolean;
}

/**
 * Events at the main board's size: report_score on a board with notify_top 100 and three webhooks
 * wanting player.overtaken (to a receiver in this process, on 127.0.0.1) against the main board
 * (notify_top 0, no webhook) in alternating rounds, then the deliveries per second the worker makes
 * to that receiver while it works through what the rounds recorded. Starts its own API; the worker
 * runs (started by the caller, with the bench's WEBHOOK_ALLOW_* settings).
 */
export async function eventFigures(
  setup: ServiceSetup,
  options: BenchOptions,
  engine: Engine,
  parts: BenchParts,
  ctx: ScenarioContext,
): Promise<EventFigures> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const board = (await engine.leaderboards.put(ctx.gameId, NOTIFY_BOARD, { type: 'individual', notifyTop: NOTIFY_TOP }, 'system'))
    .leaderboard;
  log(`  seeding the ${NOTIFY_BOARD} board with ${options.players} players`);
  await seedTiedBoard(parts.pool, parts.rankings, board, options.players, 13);

  const received: number[] = [];
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(performance.now());
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/events`;
  const webhooks = [];
  for (let i = 0; i < WEBHOOKS; i++) {
    webhooks.push(
      await engine.webhooks.create(
        ctx.gameId,
        { url: `${url}/${i}`, events: ['player.overtaken'], leaderboardIds: [NOTIFY_BOARD] },
        'system',
      ),
    );
  }
  try {
    const scenarios: Scenario[] = [
      { label: REPORT_LABEL, kind: 'report', method: 'POST', board: BOARDS.main },
      { label: OVERTAKEN_LABEL, kind: 'report', method: 'POST', board: NOTIFY_BOARD },
    ];
    const comparison = await compareSides(setup, options, ctx, scenarios);
    log('  waiting for the deliveries to stop');
    const started = performance.now();
    let seen = -1;
    let quietSince = performance.now();
    while (performance.now() - started < DRAIN_LIMIT_MS) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      if (received.length !== seen) {
        seen = received.length;
        quietSince = performance.now();
      } else if (performance.now() - quietSince >= QUIET_MS) break;
    }
    const drained = performance.now() - quietSince >= QUIET_MS;
    const deliverySeconds = received.length > 1 ? (received[received.length - 1]! - received[0]!) / 1000 : 0;
    return { entries: options.players, comparison, delivered: received.length, deliverySeconds, drained };
  } finally {
    for (const webhook of webhooks) await engine.webhooks.delete(ctx.gameId, webhook.id, 'system');
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  }
}

/** The overtaken report against the plain one: >= 90%. */
export function eventRatios(figures: EventFigures): SideRatio[] {
  return sideRatios([figures.comparison], { [OVERTAKEN_LABEL]: 0.9 });
}
