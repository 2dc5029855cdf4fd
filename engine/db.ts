import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { runner } from 'node-pg-migrate';
import { ConflictError } from './errors.js';
import { sqlDir } from './paths.js';
import type { Logger } from './logger.js';

// PostgreSQL bigint (OID 20) values in this schema are ids and versions well inside 2^53.
pg.types.setTypeParser(20, (value) => Number(value));

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
/** What a store runs its SQL on: the pool, or the client of the transaction it takes part in. */
export type Queryable = pg.Pool | pg.PoolClient;
/** Runs work in one transaction (withTransaction on the engine's pool): what services get instead of the pool. */
export type RunInTransaction = <T>(work: (client: PoolClient) => Promise<T>) => Promise<T>;

// SQLSTATEs of a transaction PostgreSQL aborted only because of a concurrent one: deadlock detected,
// serialization failure. Running it again is the documented remedy.
const RETRIED_SQLSTATES = new Set(['40P01', '40001']);
const TRANSACTION_ATTEMPTS = 4;

/**
 * Runs `work` in one transaction on one pooled connection; every query of it goes through the
 * client it is given. A transaction PostgreSQL aborts as a deadlock or serialization failure is run
 * again from the start, after a short random pause so the two do not meet again at once; if that
 * keeps happening the caller gets a ConflictError (409), never an internal error. Since `work` may
 * run more than once, what it does outside PostgreSQL must be safe to repeat.
 */
export async function withTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
      const code = (error as { code?: unknown } | null)?.code;
      if (typeof code !== 'string' || !RETRIED_SQLSTATES.has(code)) throw error;
      if (attempt === TRANSACTION_ATTEMPTS) {
        throw new ConflictError('A concurrent change to the same data got in the way; retry the request.');
      }
    } finally {
      // A connection that could not even roll back is discarded rather than reused.
      client.release(broken);
    }
    await sleep(Math.random() * 20 * attempt);
  }
}

export function transactionsOn(pool: Pool): RunInTransaction {
  return (work) => withTransaction(pool, work);
}

/**
 * Runs `work` holding a session-level advisory lock named `name`: processes starting together
 * take turns at one-off set-up work.
 */
export async function withAdvisoryLock<T>(pool: Pool, name: string, work: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    return await work();
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]).catch(() => undefined);
    client.release();
  }
}

/**
 * PostgreSQL text cannot hold U+0000 (a query carrying it fails), so no stored row has an id with
 * it: a lookup of such an id finds nothing without asking.
 */
export function storable(value: string): boolean {
  return !value.includes('\u0000');
}

/**
 * A pool for requests (`queryTimeoutMs` bounds every query), or, with `queryTimeoutMs: 0`, for bulk
 * loads that may rightly run for minutes (the bench's seeding).
 */
export function createPool(databaseUrl: string, max = 10, { queryTimeoutMs = 15_000 } = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max,
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
    // A query that hangs (PostgreSQL unreachable mid-query) must fail so the request can answer 503.
    ...(queryTimeoutMs > 0 && { query_timeout: queryTimeoutMs }),
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  return pool;
}

/**
 * Applies pending migrations from sql/ in order, in one transaction, under PostgreSQL's advisory
 * lock, so two processes starting together cannot race (node-pg-migrate does the bookkeeping).
 */
export async function migrate(databaseUrl: string, logger?: Logger): Promise<void> {
  await runner({
    databaseUrl,
    dir: sqlDir,
    migrationsTable: 'pgmigrations',
    direction: 'up',
    singleTransaction: true,
    advisoryLockMode: 'wait',
    checkOrder: true,
    log: (message: string) => logger?.debug({ migration: message }, 'migration'),
  });
}

/** Creates the database named in the URL when it does not exist yet. */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!name) return;
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`).catch((error: { code?: string }) => {
        // Created meanwhile by another process starting at the same time: 42P04 when its creation
        // was committed before this one began, 23505 (pg_database's unique name) when both ran at once.
        if (error.code !== '42P04' && error.code !== '23505') throw error;
      });
    }
  } finally {
    await client.end();
  }
}

/** Drops a database, closing its connections (the bench and the test suite reset their own this way). */
export async function dropDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
