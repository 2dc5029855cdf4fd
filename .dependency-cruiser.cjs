/**
 * The layering npm test enforces (scripts/test.sh runs `depcruise api engine worker scripts test`).
 * Type-only imports count: tsPreCompilationDeps reads the sources as written. docs/architecture.md
 * describes the floors.
 *
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'engine-below-entry-points',
      comment: 'engine/ is the core both entry points share: it never imports the API (api/) or the worker (worker/).',
      severity: 'error',
      from: { path: '^engine/' },
      to: { path: '^(api|worker)/' },
    },
    {
      name: 'live-is-the-bottom-floor',
      comment:
        'engine/live/ (the Redis gateway: script calls, keys, scripts, season rotation) imports nothing of the engine ' +
        'above it: only its own folder, engine/errors.ts (the error types its calls throw) and engine/paths.ts (where ' +
        'the Lua scripts are read from). What it needs of the layers above is injected (PersistenceHooks, recoverWith).',
      severity: 'error',
      from: { path: '^engine/live/' },
      to: { path: '^(api|worker|scripts|test|engine)/', pathNot: ['^engine/live/', '^engine/errors\\.ts$', '^engine/paths\\.ts$'] },
    },
    {
      name: 'no-circular',
      comment: 'No module imports itself through others, anywhere in the tree.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
