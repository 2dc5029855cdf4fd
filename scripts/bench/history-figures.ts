import { transactionsOn } from '../../engine/db.js';
import type { Engine } from '../../engine/engine.js';
import { RankSnapshotStore } from '../../engine/history/rank-snapshot-store.js';
import { RankSnapshots } from '../../engine/history/rank-snapshots.js';
import { LeaderboardStore } from '../../engine/leaderboards/leaderboard-store.js';
import { createLogger } from '../../engine/logger.js';
import { unpaced } from '../../engine/pace.js';
import type { BenchParts } from './engine-parts.js';
import { BOARDS } from './fixtures.js';
import type { BenchOptions } from './options.js';
import { compareSides, sideRatios, type SideComparison, type SideRatio } from './rounds.js';
import type { Scenario, ScenarioContext } from './scenarios.js';
import { seedTiedBoard } from './seed.js';
import type { ServiceSetup } from './service.js';

/** A board of every player, snapshotted: its pages carry rank_change. */
export const HISTORY_BOARD = 'history';
/** The most a daily snapshot keeps of a board (RANK_SNAPSHOT_TOP's ceiling). */
const SNAPSHOT_TOP = 100_000;
const PLAIN_PAGE_LABEL = 'third-party page of 100, random offset, no snapshot';
const CHANGE_PAGE_LABEL = `third-party page of 100, random offset, rank_change from a snapshot of ${SNAPSHOT_TOP.toLocaleString('en-US')}`;

export interface HistoryFigures {
  entries: number;
  /** One board's daily snapshot: entries kept, the seconds its work took (unpaced), PostgreSQL bytes it added. */
  snapshot: { entries: number; seconds: number; bytes: number };
  comparison: SideComparison;
}

/**
 * Rank history at the main board's size: the daily snapshot of a board's first 100,000 entries
 * (its time, unpaced, and the PostgreSQL it takes), then a page of 100 at a random offset on that
 * board (every entry with rank_change) against the main board (no snapshot), in alternating rounds.
 */
export async function historyFigures(
  setup: ServiceSetup,
  options: BenchOptions,
  engine: Engine,
  parts: BenchParts,
  ctx: ScenarioContext,
): Promise<HistoryFigures> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const board = (await engine.leaderboards.put(ctx.gameId, HISTORY_BOARD, { type: 'individual' }, 'system')).leaderboard;
  log(`  seeding the ${HISTORY_BOARD} board with ${options.players} players`);
  await seedTiedBoard(parts.pool, parts.rankings, board, options.players, 17);

  const snapshots = new RankSnapshots({
    store: new RankSnapshotStore(parts.pool),
    leaderboards: new LeaderboardStore(parts.pool),
    rankings: parts.rankings,
    transact: transactionsOn(parts.pool),
    // The work alone: the worker paces it to ARCHIVE_CPU_SHARE of the wall clock (0.2: five times as long).
    pace: unpaced,
    settings: { hourUtc: 0, top: SNAPSHOT_TOP, keepDays: 400 },
    logger: createLogger('warn'),
  });
  const size = async () =>
    Number(
      (
        await parts.pool.query<{ bytes: string }>(
          `SELECT pg_total_relation_size('rank_snapshots') + pg_total_relation_size('rank_snapshot_days') AS bytes`,
        )
      ).rows[0]!.bytes,
    );
  const bytesBefore = await size();
  log(`  taking the ${HISTORY_BOARD} board's snapshot of its first ${SNAPSHOT_TOP} entries`);
  const started = performance.now();
  const outcome = await snapshots.take(board.internalId, new Date().toISOString().slice(0, 10));
  const seconds = (performance.now() - started) / 1000;
  if (outcome !== 'taken') throw new Error(`the snapshot was not taken: ${outcome}`);
  await parts.pool.query('VACUUM ANALYZE rank_snapshots');
  const entries = Number(
    (
      await parts.pool.query<{ n: string }>('SELECT count(*) AS n FROM rank_snapshots WHERE leaderboard_internal_id = $1', [
        board.internalId,
      ])
    ).rows[0]!.n,
  );
  const snapshot = { entries, seconds, bytes: (await size()) - bytesBefore };

  const scenarios: Scenario[] = [
    { label: PLAIN_PAGE_LABEL, kind: 'third-party-page', method: 'GET', board: BOARDS.main },
    { label: CHANGE_PAGE_LABEL, kind: 'third-party-page', method: 'GET', board: HISTORY_BOARD },
  ];
  const comparison = await compareSides(setup, options, ctx, scenarios);
  return { entries: options.players, snapshot, comparison };
}

/** The page with rank_change against the page without: >= 90%. */
export function historyRatios(figures: HistoryFigures): SideRatio[] {
  return sideRatios([figures.comparison], { [CHANGE_PAGE_LABEL]: 0.9 });
}
