import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const FEATURES = dirname(fileURLToPath(import.meta.url));
const SOURCE = resolve(FEATURES, '..');
/** `from '…'` (static) or `import('…')` (lazy: its own chunk). */
const IMPORT = /(from|import\()\s*['"](\.[^'"]+)['"]/g;

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The feature a file belongs to, or undefined outside `features/`. */
function featureOf(path: string): string | undefined {
  const inFeatures = relative(FEATURES, path);
  return inFeatures.startsWith('..') ? undefined : inFeatures.split(sep)[0];
}

/** Every relative import of `files` that reaches into a feature other than the importer's own. */
function importsIntoOtherFeatures(
  files: string[],
  allowed: (target: string, isLazy: boolean) => boolean,
): string[] {
  return files.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(IMPORT)].flatMap(([, keyword, specifier = '']) => {
      const target = resolve(dirname(file), specifier);
      const feature = featureOf(target);
      if (!feature || feature === featureOf(file) || allowed(target, keyword !== 'from')) return [];
      return [`${relative(SOURCE, file)} -> ${relative(SOURCE, target)}`];
    }),
  );
}

const isIndex = (target: string) => target.endsWith(`${sep}index.ts`);

describe('feature boundaries', () => {
  it('features use each other only through their index', () => {
    expect(importsIntoOtherFeatures(sourceFiles(FEATURES), isIndex)).toEqual([]);
  });

  it('shared components and libraries import no feature (the app composes them)', () => {
    const shared = [...sourceFiles(join(SOURCE, 'components')), ...sourceFiles(join(SOURCE, 'lib'))].filter(
      (file) => !file.endsWith('.test.ts'),
    );
    expect(importsIntoOtherFeatures(shared, () => false)).toEqual([]);
  });

  it('the app reaches a feature through its index, its pages (the routes) or a piece it loads lazily', () => {
    const app = sourceFiles(join(SOURCE, 'app'));
    const isPage = (target: string) => target.includes(`${sep}pages${sep}`);
    expect(
      importsIntoOtherFeatures(app, (target, isLazy) => isLazy || isIndex(target) || isPage(target)),
    ).toEqual([]);
  });
});

describe('query keys', () => {
  it('come from each feature’s key factory, never written inline', () => {
    const inline = /queryKey:\s*\[\s*['"]/;
    const offenders = sourceFiles(SOURCE)
      .filter((file) => !file.endsWith('.test.ts') && inline.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SOURCE, file));
    expect(offenders).toEqual([]);
  });
});
