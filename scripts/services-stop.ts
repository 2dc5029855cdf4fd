import { stopPrivateServices } from './services.js';

/**
 * `npm run services:stop`: stops the private Redis and PostgreSQL that `npm start` (or the test
 * suite) started under .data/ when none was on the default ports. They keep running after
 * `npm start` exits, so the next start is quick; this is how to stop them.
 */
stopPrivateServices().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
