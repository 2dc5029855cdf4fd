import cluster from 'node:cluster';
import express from 'express';
import { loadConfig } from '../../engine/config.js';
import { createRankingParts } from '../../engine/engine.js';
import { createRedis } from '../../engine/live/redis.js';

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
  // The rungs between the ceiling and the service: the bare POST plus the engine's report script on the
  // seeded board and the persistence job it may call for (as the service does, so the worker's figures
  // stay clean), without the API's authentication, validation, lookups and views.
  const board = process.env.BARE_REPORT_BOARD;
  if (board) {
    // The service's own configuration, so the key prefix and queue shards are the worker's.
    const config = loadConfig(process.env);
    const { marks, rankings } = createRankingParts(
      createRedis(config.redisUrl, { role: 'request' }),
      createRedis(config.redisUrl, { role: 'queue' }),
      config,
    );
    const ranked = {
      internalId: Number(board),
      sortOrder: 'desc' as const,
      updateStrategy: 'best' as const,
      season: 1,
      seasonStartedAt: new Date(),
    };
    // And the GET rung: a player's rank read (the record's script), without auth, lookups and views.
    app.get('/bare/rank/:player_id', async (req, res) => {
      const { total, entries } = (await rankings.scoresOf(ranked, 'players', [req.params.player_id]))!;
      const entry = entries[0];
      res.json({ player_id: req.params.player_id, score: entry ? Number(entry.score) : null, rank: entry?.rank ?? null, total });
    });
    app.post('/bare/report', express.json(), async (req, res) => {
      const { player_id: player, score } = req.body as { player_id: string; score: number };
      const outcome = await rankings.report(ranked, player, score);
      if (outcome.needsPersistence) await marks.requestJobs([ranked.internalId]);
      res.json({
        player_id: player,
        best_score: Number(outcome.best),
        improved: outcome.improved,
        rank: outcome.rank,
        total: outcome.total,
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
