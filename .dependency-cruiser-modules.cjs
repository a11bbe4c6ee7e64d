// No cycle between server modules: the production files alone (tests are leaves here: every module's
// tests share the harness, which imports the whole app), each module folder folded into one node by
// dependency-cruiser's folder scope. Run by `npm run lint` (decision 010).
const { options } = require('./.dependency-cruiser.cjs');

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle-between-modules',
      comment:
        'These server modules depend on each other, directly or through others. Break the cycle where the ' +
        'data lives: move the code, or invert the dependency with a port on the context or a domain event ' +
        '(docs/decisions/010-module-entries-and-graph.md).',
      severity: 'error',
      scope: 'folder',
      from: { path: '^apps/server/src/modules/[^/]+$' },
      to: { path: '^apps/server/src/modules/[^/]+$', circular: true },
    },
    {
      // The folder scope folds modules only, so the context (one file beside app.ts, the wiring, which
      // imports every module by design) needs its own rule: every module imports the context, so any
      // module it reaches, directly or through other files, closes a cycle through it.
      name: 'no-cycle-through-context',
      comment:
        'The context reaches a server module, and every module imports the context: a cycle through ' +
        'context.ts. Declare the port or cache type in core/ and let the module implement it ' +
        '(docs/decisions/010-module-entries-and-graph.md).',
      severity: 'error',
      from: { path: '^apps/server/src/context[.]ts$' },
      to: { path: '^apps/server/src/modules/', reachable: true },
    },
  ],
  options: {
    ...options,
    doNotFollow: { path: ['node_modules', '[.]test[.]ts$'] },
    metrics: true,
  },
};
