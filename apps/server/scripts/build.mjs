// Compiles the server to one JavaScript module, dist/main.js, which `npm start` runs (no tsx in
// production).
import { bundleServer } from './bundle.mjs';

await bundleServer({
  entryPoint: new URL('../src/main.ts', import.meta.url).pathname,
  outfile: new URL('../dist/main.js', import.meta.url).pathname,
});
