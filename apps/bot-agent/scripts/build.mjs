// Builds the SDK as bot makers install it (docs/decisions/922-sdk-package.md): one ES module,
// dist/index.js, and one declaration file, dist/index.d.ts, each with what it needs of
// @bot/contracts inside (the contracts are not published); every other import stays a dependency
// of the package. `--pack` then packs them into dist/bot-sdk.tgz, the tarball the platform serves.
import { execFileSync } from 'node:child_process';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { generateDtsBundle } from 'dts-bundle-generator';
import { build } from 'esbuild';

const at = (relative) => new URL(`../${relative}`, import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(at('package.json'), 'utf8'));

await build({
  entryPoints: [at('src/index.ts')],
  outfile: at('dist/index.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  external: Object.keys(manifest.dependencies),
  logLevel: 'warning',
});
// tsconfig.build.json maps @bot/contracts to its sources, so its types are inlined, not imported.
const [declarations] = generateDtsBundle([{ filePath: at('src/index.ts'), output: { noBanner: true } }], {
  preferredConfigPath: at('tsconfig.build.json'),
});
writeFileSync(at('dist/index.d.ts'), declarations);

if (process.argv.includes('--pack')) {
  // No `prepack` again: the files were just built.
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', at('dist')], {
      cwd: at('.'),
      encoding: 'utf8',
    }),
  );
  renameSync(at(`dist/${packed.filename}`), at('dist/bot-sdk.tgz'));
}
