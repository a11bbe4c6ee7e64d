// Compiles the server to one JavaScript module, dist/main.js, which `npm start` runs (no tsx in
// production), and each command-line task the image runs to dist/cli/<name>.js (migrate, backup,
// restore, keys): the image has no dev dependencies, so no tsx and no TypeScript sources.
import { bundleServer, CLI_TASKS } from './bundle.mjs';

await Promise.all([
  bundleServer({
    entryPoint: new URL('../src/main.ts', import.meta.url).pathname,
    outfile: new URL('../dist/main.js', import.meta.url).pathname,
  }),
  ...CLI_TASKS.map((name) =>
    bundleServer({
      entryPoint: new URL(`../src/cli/${name}.ts`, import.meta.url).pathname,
      outfile: new URL(`../dist/cli/${name}.js`, import.meta.url).pathname,
    }),
  ),
]);
