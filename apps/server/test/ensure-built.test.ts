import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript script of the repository (npm start runs it before any build)
import { BUILT_PARTS, recordBuilt, staleParts } from '../../../scripts/ensure-built.mjs';

/**
 * Operations round 3, defect 4: after `git pull && npm ci && npm start` the server was rebuilt but
 * not the web app (built only when index.html was missing), so the old app talked to the new API.
 * `npm start` rebuilds a part whenever the sources it was built from changed.
 */
let base: string;
const write = async (relative: string, content: string) => {
  await mkdir(path.dirname(path.join(base, relative)), { recursive: true });
  await writeFile(path.join(base, relative), content);
};

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'ensure-built-'));
  for (const part of Object.values(BUILT_PARTS) as { sources: string[]; output: string }[]) {
    for (const source of part.sources)
      await write(source.includes('.') ? source : `${source}/index.ts`, `// ${source}`);
    await write(part.output, 'built');
  }
});
afterEach(() => rm(base, { recursive: true, force: true }));

describe('what npm start rebuilds', () => {
  it('builds what was never built or has no record of its sources', () => {
    expect(staleParts(base)).toEqual(['web', 'server', 'sdk']);
    recordBuilt('web', base);
    expect(staleParts(base)).toEqual(['server', 'sdk']);
    recordBuilt('server', base);
    recordBuilt('sdk', base);
    expect(staleParts(base)).toEqual([]);
  });

  it('rebuilds the SDK’s tarball when its sources, its build, its README, the contracts or the lockfile change', async () => {
    for (const changed of [
      'apps/bot-agent/src/index.ts',
      'apps/bot-agent/scripts/index.ts',
      'apps/bot-agent/README.md',
      'apps/bot-agent/CHANGELOG.md',
      'packages/contracts/src/index.ts',
      'package-lock.json',
    ]) {
      for (const part of ['web', 'server', 'sdk']) recordBuilt(part, base);
      await write(changed, `// changed ${Math.random()}`);
      expect(staleParts(base), changed).toContain('sdk');
    }
  });

  it('rebuilds the web app when its sources, index.html, Vite config, the contracts or the lockfile change', async () => {
    for (const changed of [
      'apps/web/src/index.ts',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'packages/contracts/src/index.ts',
      'package-lock.json',
      'apps/web/src/new-page.tsx',
    ]) {
      for (const part of ['web', 'server', 'sdk']) recordBuilt(part, base);
      await write(changed, `// changed ${Math.random()}`);
      const expected = changed.startsWith('apps/web') ? ['web'] : ['web', 'server', 'sdk'];
      expect(staleParts(base), changed).toEqual(expected);
    }
  });

  it('judges by content, not by dates: an upgrade unpacked with old dates still rebuilds', async () => {
    for (const part of ['web', 'server', 'sdk']) recordBuilt(part, base);
    await write('apps/web/src/index.ts', '// the new version');
    const longAgo = new Date('2020-01-01T00:00:00Z');
    await utimes(path.join(base, 'apps/web/src/index.ts'), longAgo, longAgo);
    expect(staleParts(base)).toEqual(['web']);
    // Touching a file without changing it rebuilds nothing.
    recordBuilt('web', base);
    await utimes(path.join(base, 'apps/web/src/index.ts'), new Date(), new Date());
    expect(staleParts(base)).toEqual([]);
  });
});
