import cluster from 'node:cluster';
import DataLoader from 'dataloader';
import express from 'express';
import { loadConfig } from '../../engine/config.js';
import { createRankingParts } from '../../engine/engine.js';
import { createPool } from '../../engine/db.js';
import { createRedis } from '../../engine/live/redis.js';
import type { RankedEntry } from '../../engine/live/types.js';
import { PlayerStore, type ProfileRow } from '../../engine/players/player-store.js';

/**
 * The ceiling: a bare Express 5 app with one trivial JSON GET and one JSON POST, run with the same
 * node:cluster layout as the API (BARE_PROCESSES processes sharing BARE_PORT on loopback).
 */
const port = Number(process.env.BARE_PORT);
const processes = Number(process.env.BARE_PROCESSES ?? '1');

if (cluster.isPrimary && processes > 1) {
  for (let i = 0; i < processes; i += 1) cluster.fork();
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  });
} else {
  const app = express();
  app.disable('x-powered-by');
  app.get('/bare', (_req, res) => {
    res.json({ ok: true });
  });
  app.post('/bare', express.json(), (req, res) => {
    res.json({ received: (req.body as { score?: unknown }).score ?? null });
  });
  // The rungs between the ceiling and the service: each scenario's Redis scripts (and, for the list
  // reads, the PostgreSQL query of the players' names) with a body of the same shape, without the
  // API's credentials, validation, cached lookups, views and logging. The gap between a scenario and
  // its rung is what the API's own layers cost (docs/performance.md).
  const board = process.env.BARE_REPORT_BOARD;
  if (board) {
    // The service's own configuration, so the key prefix and queue shards are the worker's.
    const config = loadConfig(process.env);
    const { marks, rankings } = createRankingParts(
      createRedis(config.redisUrl, { role: 'request' }),
      createRedis(config.redisUrl, { role: 'queue' }),
      config,
    );
    const players = new PlayerStore(createPool(config.databaseUrl));
    // Names are looked up as the service does: the lookups of concurrent requests in one query.
    const names = new DataLoader<string, ProfileRow | null>(
      async (ids) => {
        const found = new Map((await players.findProfiles([...ids])).map((p) => [p.id, p]));
        return ids.map((id) => found.get(id) ?? null);
      },
      { cache: false, batchScheduleFn: (load) => setImmediate(load), maxBatchSize: 1000 },
    );
    const rankedBoard = (internalId: number) => ({
      internalId,
      sortOrder: 'desc' as const,
      updateStrategy: 'best' as const,
      season: 1,
      seasonStartedAt: new Date(),
    });
    const ranked = rankedBoard(Number(board));
    const serverBoards = (process.env.BARE_SERVER_BOARDS ?? '').split(',').filter(Boolean).map(Number).map(rankedBoard);
    const avatar = (id: string) => `${config.baseUrl}/api/v1/users/${encodeURIComponent(id)}/avatar.png`;
    // Entries as the service shows them: the range read's rows and their players' names (a loop, as
    // the service builds its rows: flatMap would cost the rung more than the service).
    const shown = async (entries: RankedEntry[]) => {
      const found = await Promise.all(entries.map((e) => names.load(e.id)));
      const rows = [];
      for (const [i, e] of entries.entries()) {
        const player = found[i];
        if (!player) continue;
        rows.push({
          player_id: e.id,
          display_name: player.displayName,
          avatar_url: avatar(e.id),
          clan_id: player.clanId,
          score: Number(e.score),
          rank: e.rank,
          metadata: e.metadata === '' ? null : (JSON.parse(e.metadata) as object),
        });
      }
      return rows;
    };
    const report = async (boards: ReturnType<typeof rankedBoard>[], player: string, scores: number[]) => {
      const outcomes = await Promise.all(boards.map((b, i) => rankings.report(b, player, scores[i]!)));
      const queued = boards.filter((_, i) => outcomes[i]!.needsPersistence).map((b) => b.internalId);
      if (queued.length > 0) await marks.requestJobs(queued);
      return outcomes;
    };
    // The record's rung: the rank read script and the player's name (a random player of 1M is not
    // in the service's cache either), together, without auth, cached lookups and views.
    app.get('/bare/rank/:player_id', async (req, res) => {
      const id = req.params.player_id;
      const [read, player] = await Promise.all([rankings.scoresOf(ranked, 'players', [id]), names.load(id)]);
      const entry = read!.entries[0];
      res.json({
        leaderboard_id: 'main',
        player_id: id,
        display_name: player?.displayName ?? null,
        avatar_url: avatar(id),
        clan_id: player?.clanId ?? null,
        score: entry ? Number(entry.score) : null,
        rank: entry?.rank ?? null,
        total: read!.total,
        metadata: null,
      });
    });
    app.post('/bare/report', express.json(), async (req, res) => {
      const { player_id: player, score } = req.body as { player_id: string; score: number };
      const [outcome] = await report([ranked], player, [score]);
      res.json({
        player_id: player,
        best_score: Number(outcome!.best),
        improved: outcome!.improved,
        rank: outcome!.rank,
        total: outcome!.total,
      });
    });
    // The page of 100's rung: the range read and its players' names (one query), serialized.
    app.get('/bare/page', async (req, res) => {
      const offset = Number(req.query.offset);
      const { total, entries } = (await rankings.page(ranked, 'players', offset, 100))!;
      res.json({
        leaderboard_id: 'main',
        name: 'main',
        type: 'individual',
        sort_order: 'desc',
        view: 'players',
        total,
        limit: 100,
        offset,
        entries: await shown(entries),
      });
    });
    // around_me's rung: the around read (5 above, 5 below) and its players' names.
    app.get('/bare/around/:player_id', async (req, res) => {
      const { total, entries } = (await rankings.around(ranked, req.params.player_id, 5))!;
      res.json({ leaderboard_id: 'main', total, entries: await shown(entries) });
    });
    // The server batch's rung: the player's existence (one query) and a report script per board, together.
    app.post('/bare/batch', express.json(), async (req, res) => {
      const { player_id: player, scores } = req.body as { player_id: string; scores: number[] };
      if (!(await names.load(player))) {
        res.status(404).json({ error: 'player_not_found' });
        return;
      }
      const outcomes = await report(serverBoards, player, scores);
      res.json({
        player_id: player,
        results: outcomes.map((outcome, i) => ({
          leaderboard_id: `s${i + 1}`,
          submitted_score: scores[i],
          best_score: Number(outcome.best),
          improved: outcome.improved,
          rank: outcome.rank,
          season: 1,
        })),
      });
    });
  }
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  const server = app.listen(port, '127.0.0.1');
  server.keepAliveTimeout = 65_000; // as the API sets it, so connections are reused the same way
  process.on('SIGTERM', () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
