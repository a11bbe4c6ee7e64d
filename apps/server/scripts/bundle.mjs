// How the server is compiled for production, shared by `npm run build` (scripts/build.mjs) and the
// benchmarks, whose targets must run the code `npm start` runs (no tsx, no esbuild `keepNames`).
// Our workspace packages (@bot/*, TypeScript sources) are bundled in; every other package stays an
// import resolved from node_modules at run time (native addons, wasm, data files).
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

/** The tasks an installation runs with `node apps/server/dist/cli/<name>.js` (docs/operations.md). */
export const CLI_TASKS = ['migrate', 'backup', 'restore', 'keys-root', 'keys-rotate', 'keys-master-rotate'];

const keepExternal = {
  name: 'node-modules-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@bot/') ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * Compiles `entryPoint` and what it imports into one ES module at `outfile`. The output must stay
 * inside apps/server: the server finds its migrations and the web build from its package folder.
 * Answers the packages the module imports at run time (esbuild's metafile), which must all be
 * runtime dependencies: the image installs no dev dependency (apps/server/test/deploy-files.test.ts).
 */
export async function bundleServer({ entryPoint, outfile }) {
  const { outputFiles, metafile } = await build({
    entryPoints: [entryPoint],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    sourcemap: true,
    plugins: [keepExternal],
    logLevel: 'warning',
    write: false,
    metafile: true,
  });
  // Each file replaced whole (written aside, then renamed): benchmarks run side by side compile the
  // same target, and a process must never start from a half-written one.
  for (const file of outputFiles) {
    const aside = `${file.path}.${process.pid}.partial`;
    mkdirSync(path.dirname(file.path), { recursive: true });
    writeFileSync(aside, file.contents);
    renameSync(aside, file.path);
  }
  const imports = Object.values(metafile.outputs).flatMap((output) => output.imports);
  return {
    externalImports: [...new Set(imports.filter((entry) => entry.external).map((entry) => entry.path))],
  };
}
