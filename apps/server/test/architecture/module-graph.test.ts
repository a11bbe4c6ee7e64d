import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** Each server module and the modules its production files import, from a cruise of the real tree. */
async function moduleGraph(): Promise<Record<string, string[]>> {
  const options = await extractDepcruiseOptions(MODULE_RULES);
  const { output } = await cruise(['apps/server/src'], { ...options, baseDir: ROOT });
  const moduleOf = (path: string) => /^apps\/server\/src\/modules\/([^/]+)\//.exec(path)?.[1];
  const graph: Record<string, Set<string>> = {};
  for (const { source, dependencies } of (output as ICruiseResult).modules) {
    const from = moduleOf(source);
    if (!from || /\.test\.ts$/.test(source)) continue;
    graph[from] ??= new Set();
    for (const to of dependencies.map((dependency) => moduleOf(dependency.resolved)))
      if (to && to !== from) graph[from].add(to);
  }
  return Object.fromEntries(Object.entries(graph).map(([module, uses]) => [module, [...uses].sort()]));
}

/** The list under "Who depends on whom" in docs/architecture.md, in its order. */
function documentedGraph(): Map<string, string[]> {
  const text = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const block = /Who depends on whom[^\n]*\n+```\n([^`]*)```/.exec(text)?.[1] ?? '';
  return new Map(
    block
      .trim()
      .split('\n')
      .map((line) => {
        const [, module = '', uses = ''] = /^(\S+)\s+(.*)$/.exec(line) ?? [];
        return [module, uses === '-' ? [] : uses.split(', ')];
      }),
  );
}

const TREE = {
  // Two modules through their entries, each needing the other: a cycle between modules.
  'apps/server/src/modules/orders/index.ts': "export { checkout } from './orders.service.ts';",
  'apps/server/src/modules/orders/orders.service.ts':
    "import { reserve } from '../vouchers/index.ts';\nexport const checkout = () => reserve();",
  'apps/server/src/modules/vouchers/index.ts': "export { reserve } from './vouchers.service.ts';",
  'apps/server/src/modules/vouchers/vouchers.service.ts':
    "import type { checkout } from '../orders/index.ts';\nexport const reserve = (): ReturnType<typeof checkout> | undefined => undefined;",
  // The context carrying a module's type, through another file, while a module uses the context: a
  // cycle through context.ts (app.ts importing modules is the wiring, not one).
  'apps/server/src/context.ts':
    "import type { Store } from './store.ts';\nexport interface Ctx { store: Store }",
  'apps/server/src/store.ts': "export type { Store } from './modules/settings/index.ts';",
  'apps/server/src/modules/settings/index.ts': 'export interface Store { read(): string }',
  'apps/server/src/modules/settings/settings.service.ts':
    "import type { Ctx } from '../../context.ts';\nexport const read = (ctx: Ctx) => ctx.store.read();",
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
  it('names a cycle between two modules, even through their entries and a type-only import, and one through the context', async () => {
    expect(await violations(MODULE_RULES, ['apps/server/src'], fixture)).toEqual([
      'no-cycle-between-modules: apps/server/src/modules/orders -> apps/server/src/modules/vouchers -> apps/server/src/modules/orders',
      'no-cycle-between-modules: apps/server/src/modules/vouchers -> apps/server/src/modules/orders -> apps/server/src/modules/vouchers',
      'no-cycle-through-context: apps/server/src/context.ts -> apps/server/src/modules/settings/index.ts',
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

  it('docs/architecture.md lists who depends on whom as the code has it, each module below what it uses', async () => {
    const documented = documentedGraph();
    expect(Object.fromEntries(documented)).toEqual(await moduleGraph());
    const order = [...documented.keys()];
    for (const [module, uses] of documented)
      for (const used of uses)
        expect(order.indexOf(used), `${module} -> ${used}`).toBeLessThan(order.indexOf(module));
  }, 60_000);
});
