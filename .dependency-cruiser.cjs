// Who may import whom, checked over every file (tests included) in `npm run lint`; the cycles between
// server modules are checked by `.dependency-cruiser-modules.cjs` (docs/architecture.md, "Modules and
// their entries"; docs/decisions/010-module-entries-and-graph.md). Type-only imports count: an
// interface a module needs is a dependency on the module that declares it.
const SERVER_MODULE = '^apps/server/src/modules/([^/]+)/';
const WEB_FEATURE = '^apps/web/src/features/([^/]+)/';
const TEST = '[.]test[.]tsx?$|^apps/server/test/|^apps/web/test/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'module-entry-only',
      comment:
        "A file outside a server module imports one of the module's own files: import its index.ts, and " +
        'export there what is needed (inside a module, files import each other directly).',
      severity: 'error',
      from: { pathNot: SERVER_MODULE },
      to: { path: SERVER_MODULE, pathNot: `${SERVER_MODULE}index[.]ts$` },
    },
    {
      name: 'module-entry-only-between-modules',
      comment:
        "A server module imports another module's own file: import that module's index.ts instead " +
        '(inside a module, files import each other directly).',
      severity: 'error',
      from: { path: SERVER_MODULE },
      to: {
        path: '^apps/server/src/modules/',
        pathNot: ['^apps/server/src/modules/$1/', `${SERVER_MODULE}index[.]ts$`],
      },
    },
    {
      name: 'lower-layers-know-no-domain',
      comment:
        'core/ and db/ know no domain: they import no module, nor the context or the app, and take what ' +
        'they use as parameters or through a port they declare (decision 007; the wiring is app.ts).',
      severity: 'error',
      from: { path: '^apps/server/src/(core|db)/', pathNot: TEST },
      to: { path: ['^apps/server/src/modules/', '^apps/server/src/(context|app)[.]ts$'] },
    },
    {
      name: 'no-test-code-in-production',
      comment: 'A production file imports a test or a test helper: production code holds no test code.',
      severity: 'error',
      from: { path: '^apps/[^/]+/src/', pathNot: TEST },
      to: { path: TEST },
    },
    {
      name: 'web-feature-entry-only',
      comment:
        "A web feature imports another feature's own file: import its index.ts; a piece several features " +
        'show belongs in components/ (decision 105).',
      severity: 'error',
      from: { path: WEB_FEATURE },
      to: {
        path: '^apps/web/src/features/',
        pathNot: ['^apps/web/src/features/$1/', `${WEB_FEATURE}index[.]tsx?$`],
      },
    },
    {
      name: 'web-shared-parts-know-no-feature',
      comment: 'components/ and lib/ import no feature: the app composes features (decision 105).',
      severity: 'error',
      from: { path: '^apps/web/src/(components|lib)/', pathNot: TEST },
      to: { path: '^apps/web/src/features/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '/dist/', '^apps/web/dist'] },
  },
};
