import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app.js';
import { loadConfig } from '../../engine/config.js';
import { createEngine, type Engine } from '../../engine/engine.js';
import { createLogger } from '../../engine/logger.js';
import { checkAgainstOpenApi } from './openapi-check.js';

/**
 * One in-process engine and app per mocha run (created lazily, after the global setup has pointed
 * the environment at the test database and key prefix), driven over real HTTP with supertest.
 */
let shared: { engine: Engine; server: Server; url: string } | undefined;

/** Called by the global setup once the environment points at the test services. */
export async function startTestContext(): Promise<void> {
  const config = loadConfig();
  const engine = await createEngine(config, createLogger(config.logLevel));
  const server = createApp(engine).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  shared = { engine, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function context() {
  if (!shared) throw new Error('the test context has not been started');
  return shared;
}

export function testEngine(): Engine {
  return context().engine;
}

export function testUrl(): string {
  return context().url;
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Requests to the shared app; every response is checked against the OpenAPI document. */
export function api() {
  const agent = request(context().url);
  const call = (method: Method) => (path: string) => agent[method](path).expect(checkAgainstOpenApi);
  return { get: call('get'), post: call('post'), put: call('put'), patch: call('patch'), delete: call('delete') };
}

/**
 * An app over the shared engine with other settings (a limit turned on, a variable unset), for tests
 * of configuration. Its rate-limit counters live under a key prefix of its own, so no other test or
 * run shares them.
 */
export function appWith(env: Record<string, string | undefined>): Express {
  const prefix = `${process.env.REDIS_KEY_PREFIX}-${randomUUID().slice(0, 8)}`.slice(-32);
  const config = loadConfig({ ...process.env, REDIS_KEY_PREFIX: prefix, ...env });
  return createApp({ ...context().engine, config });
}

export async function closeTestEngine(): Promise<void> {
  if (!shared) return;
  const { engine, server } = shared;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await engine.close();
  shared = undefined;
}
