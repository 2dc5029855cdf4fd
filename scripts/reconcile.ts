import { loadConfigOrExit } from '../engine/config.js';
import { createPersistenceEngine } from '../engine/engine.js';
import { createLogger } from '../engine/logger.js';
import { ensureServices } from './services.js';

/** `npm run reconcile`: recounts every clan total from its members' best scores now. */
async function main(): Promise<void> {
  const services = await ensureServices('leaderboard');
  process.env.REDIS_URL = services.redisUrl;
  process.env.DATABASE_URL = services.databaseUrl;
  const config = loadConfigOrExit();
  const engine = await createPersistenceEngine(config, createLogger(config.logLevel).child({ process: 'reconcile' }));
  try {
    const repairs = await engine.maintenance.reconcileClans();
    process.stdout.write(`Reconciled clan leaderboards: ${repairs} repair(s).\n`);
  } finally {
    await engine.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`reconcile failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
