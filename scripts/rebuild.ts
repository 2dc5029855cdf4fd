import { loadConfigOrExit } from '../engine/config.js';
import { migrate } from '../engine/db.js';
import { createPersistenceEngine } from '../engine/engine.js';
import { createLogger } from '../engine/logger.js';
import { ensureServices } from './services.js';

/**
 * `npm run rebuild`: merges every persisted best score, clan membership and clan total back into
 * Redis from PostgreSQL. Never lowers a score, so it is safe while the service runs.
 */
async function main(): Promise<void> {
  const services = await ensureServices('leaderboard');
  process.env.REDIS_URL = services.redisUrl;
  process.env.DATABASE_URL = services.databaseUrl;
  const config = loadConfigOrExit();
  const logger = createLogger(config.logLevel).child({ process: 'rebuild' });
  await migrate(config.databaseUrl, logger);
  const engine = await createPersistenceEngine(config, logger);
  try {
    await engine.maintenance.requestRebuild();
    let rebuilt = await engine.maintenance.rebuild();
    // A worker may be rebuilding already: it carries this request out too; wait for it.
    while (rebuilt === undefined) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      rebuilt = await engine.maintenance.rebuild();
    }
    process.stdout.write(`Rebuilt ${rebuilt} leaderboard(s) from PostgreSQL.\n`);
  } finally {
    await engine.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`rebuild failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
