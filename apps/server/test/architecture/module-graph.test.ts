import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The module graph's rules are dependency-cruiser's, read from the same two files `npm run lint`
 * uses (decision 010): each is proved here on a small tree that breaks it, and the real tree passes.
 */
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const FILES_RULES = join(ROOT, '.dependency-cruiser.cjs');
const MODULE_RULES = join(ROOT, '.dependency-cruiser-modules.cjs');

/** The violations of a cruise as `rule: from -> to` lines (a cycle names the modules it goes through). */
async function violations(configFile: string, paths: string[], baseDir: string): Promise<string[]> {
  const options = await extractDepcruiseOptions(configFile);
  const { output } = await cruise(paths, { ...options, validate: true, baseDir });
  return (output as ICruiseResult).summary.violations
    .map(({ rule, from, to, cycle }) =>
      cycle
        ? `${rule.name}: ${from} -> ${cycle.map((step) => step.name).join(' -> ')}`
        : `${rule.name}: ${from} -> ${to}`,
    )
    .sort();
}

const TREE = {
  // Two modules through their entries, each needing the other: a cycle between modules.
  'apps/server/src/modules/orders/index.ts': "export { checkout } from './orders.service.ts';",
  'apps/server/src/modules/orders/orders.service.ts':
    "import { reserve } from '../vouchers/index.ts';\nexport const checkout = () => reserve();",
  'apps/server/src/modules/vouchers/index.ts': "export { reserve } from './vouchers.service.ts';",
  'apps/server/src/modules/vouchers/vouchers.service.ts':
    "import type { checkout } from '../orders/index.ts';\nexport const reserve = (): ReturnType<typeof checkout> | undefined => undefined;",
  // A module reaching into another's file, and the app doing the same.
  'apps/server/src/modules/catalog/index.ts': "export { list } from './catalog.service.ts';",
  'apps/server/src/modules/catalog/catalog.service.ts':
    "import { reserve } from '../vouchers/vouchers.service.ts';\nexport const list = () => reserve();",
  'apps/server/src/app.ts':
    "import { list } from './modules/catalog/catalog.service.ts';\nexport const app = list;",
  // A lower layer knowing a domain, and production code importing a test helper.
  'apps/server/src/core/outbox.ts':
    "import { list } from '../modules/catalog/index.ts';\nexport const o = list;",
  'apps/server/src/modules/catalog/catalog.routes.ts':
    "import { seed } from '../../../test/harness.ts';\nexport const routes = seed;",
  'apps/server/test/harness.ts': 'export const seed = 1;',
  // A module's tests may import another module's entry (not a cycle: tests are leaves for that rule).
  'apps/server/src/modules/vouchers/vouchers.test.ts':
    "import { list } from '../catalog/index.ts';\nexport const t = list;",
};

const fixture = mkdtempSync(join(tmpdir(), 'module-graph-'));
for (const [path, text] of Object.entries(TREE)) {
  mkdirSync(dirname(join(fixture, path)), { recursive: true });
  writeFileSync(join(fixture, path), `${text}\n`);
}
afterAll(() => rmSync(fixture, { recursive: true, force: true }));

describe('the module graph (dependency-cruiser)', () => {
  it('names a cycle between two modules, even through their entries and a type-only import', async () => {
    expect(await violations(MODULE_RULES, ['apps/server/src'], fixture)).toEqual([
      'no-cycle-between-modules: apps/server/src/modules/orders -> apps/server/src/modules/vouchers -> apps/server/src/modules/orders',
      'no-cycle-between-modules: apps/server/src/modules/vouchers -> apps/server/src/modules/orders -> apps/server/src/modules/vouchers',
    ]);
  });

  it('names a deep import, a lower layer knowing a domain and production code importing a test', async () => {
    expect(await violations(FILES_RULES, ['apps'], fixture)).toEqual([
      'lower-layers-know-no-domain: apps/server/src/core/outbox.ts -> apps/server/src/modules/catalog/index.ts',
      'module-entry-only-between-modules: apps/server/src/modules/catalog/catalog.service.ts -> apps/server/src/modules/vouchers/vouchers.service.ts',
      'module-entry-only: apps/server/src/app.ts -> apps/server/src/modules/catalog/catalog.service.ts',
      'no-test-code-in-production: apps/server/src/modules/catalog/catalog.routes.ts -> apps/server/test/harness.ts',
    ]);
  });

  it('the real tree keeps every rule', async () => {
    expect(await violations(FILES_RULES, ['apps', 'bench', 'e2e', 'scripts', 'deploy'], ROOT)).toEqual([]);
    expect(await violations(MODULE_RULES, ['apps/server/src'], ROOT)).toEqual([]);
  }, 60_000);
});
