// Compiles the server to one JavaScript module, dist/main.js, which `npm start` runs (no tsx in
// production). Our workspace packages (@bot/*, TypeScript sources) are bundled in; every other
// package stays an import resolved from node_modules at run time (native addons, wasm, data files).
import { build } from 'esbuild';

const keepExternal = {
  name: 'node-modules-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@bot/') ? undefined : { path: args.path, external: true },
    );
  },
};

await build({
  entryPoints: [new URL('../src/main.ts', import.meta.url).pathname],
  outfile: new URL('../dist/main.js', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  sourcemap: true,
  plugins: [keepExternal],
  logLevel: 'warning',
});
