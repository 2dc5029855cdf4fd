import cluster from 'node:cluster';
import express from 'express';

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
