import { migrate } from '../engine/db.js';
import { ensureServices } from '../scripts/services.js';
import { closeTestEngine, startTestContext, testEngine } from './helpers/context.js';
import { stopAllProcesses } from './helpers/processes.js';
import { resetTestData } from './helpers/reset.js';

/**
 * Runs once per mocha run: finds (or starts) Redis and PostgreSQL, points the suite at its own
 * database and Redis key prefix (never the data of a running `npm start`), empties both, and migrates.
 */
export async function mochaGlobalSetup(): Promise<void> {
  const services = await ensureServices('leaderboard_test', {
    ...process.env,
    DATABASE_URL: process.env.TEST_DATABASE_URL,
    REDIS_URL: process.env.TEST_REDIS_URL,
  });
  Object.assign(process.env, {
    REDIS_URL: services.redisUrl,
    DATABASE_URL: services.databaseUrl,
    REDIS_KEY_PREFIX: process.env.TEST_REDIS_KEY_PREFIX ?? 'lbtest',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ADMIN_TOKEN: 'test-admin-token-0123456789',
    TOKEN_SECRET: 'test-token-secret-0123456789',
    BASE_URL: 'http://localhost:3999',
    WORKER_METRICS_PORT: '0',
    DEMO_GAME: '0',
    RATE_LIMIT_SIGNUPS_PER_IP_PER_MINUTE: '0',
    RATE_LIMIT_REPORTS_PER_PLAYER_PER_SECOND: '0',
    RATE_LIMIT_THIRD_PARTY_PER_KEY_PER_SECOND: '0',
    RATE_LIMIT_WEB_PER_IP_PER_MINUTE: '0',
    RATE_LIMIT_DASHBOARD_PER_IP_PER_MINUTE: '0',
    RATE_LIMIT_DASHBOARD_SIGNINS_PER_IP_PER_MINUTE: '0',
    METRICS_TOKEN: 'test-metrics-token-0123456789',
    // Workers the tests start take no rank snapshot of every board in the test database (a test of
    // them takes its own, test/worker/rank-history.test.ts).
    RANK_HISTORY_DAYS: '0',
  });
  await resetTestData(services.databaseUrl, process.env.REDIS_KEY_PREFIX!);
  await migrate(services.databaseUrl);
  await startTestContext();
  // The empty Redis took the new database's identity and asked for a rebuild: done now, while
  // there is nothing to merge, rather than by the first worker a test starts.
  await testEngine().maintenance.rebuild();
}

export async function mochaGlobalTeardown(): Promise<void> {
  await stopAllProcesses();
  await closeTestEngine();
}
