/**
 * Gzip size of the JavaScript a visitor downloads for the public pages: the entry chunk and every
 * chunk it imports statically (from dist/.vite/manifest.json). Writes the `## Web bundle` section of
 * docs/benchmarks.md. Run after `vite build`: `npx tsx apps/web/scripts/measure-bundle.ts`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const PUBLIC_JS_BUDGET_BYTES = 170 * 1024;

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  src?: string;
}
type Manifest = Record<string, ManifestChunk>;

export function staticClosure(manifest: Manifest, start: string): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const next of manifest[key]?.imports ?? []) visit(next);
  };
  visit(start);
  return [...seen];
}

export function measure(distDir: string) {
  const manifest = JSON.parse(readFileSync(join(distDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error('No entry chunk in the manifest');
  const gzip = (file: string) => gzipSync(readFileSync(join(distDir, file)), { level: 9 }).length;
  const files = staticClosure(manifest, entryKey)
    .map((key) => manifest[key]!.file)
    .filter((file) => file.endsWith('.js'));
  const sizes = files.map((file) => ({
    file,
    raw: readFileSync(join(distDir, file)).length,
    gzip: gzip(file),
  }));
  const publicGzip = sizes.reduce((sum, item) => sum + item.gzip, 0);

  const lazyKeys = Object.keys(manifest).filter((key) => manifest[key]?.isDynamicEntry);
  const adminKeys = lazyKeys.filter((key) => /features\/admin|layouts\/admin/.test(key));
  const adminOnly = new Set(adminKeys.flatMap((key) => staticClosure(manifest, key)));
  for (const key of staticClosure(manifest, entryKey)) adminOnly.delete(key);
  const adminGzip = [...adminOnly]
    .map((key) => manifest[key]!.file)
    .filter((file) => file.endsWith('.js'))
    .reduce((sum, file) => sum + gzip(file), 0);

  // Every page load also fetches workbox-window (service worker registration) right after start.
  const startupKeys = Object.keys(manifest).filter((key) => key.includes('workbox-window'));
  const base = new Set([
    ...staticClosure(manifest, entryKey),
    ...startupKeys.flatMap((key) => staticClosure(manifest, key)),
  ]);
  const routes = Object.entries(PUBLIC_ROUTE_MODULES).map(([path, modules]) => {
    const keys = new Set(base);
    for (const module of modules) {
      if (manifest[module]) for (const key of staticClosure(manifest, module)) keys.add(key);
    }
    const total = [...keys]
      .map((key) => manifest[key]!.file)
      .filter((file) => file.endsWith('.js'))
      .reduce((sum, file) => sum + gzip(file), 0);
    return { path, total };
  });

  // Loaded by a public page on use, after it has rendered: not part of the per-page totals.
  const formKeys = new Set(
    Object.values(PUBLIC_ROUTE_MODULES).flatMap((modules) =>
      modules.flatMap((module) => (manifest[module] ? staticClosure(manifest, module) : [])),
    ),
  );
  const deferred = Object.entries(ON_USE_MODULES).map(([when, module]) => {
    const keys = manifest[module] ? staticClosure(manifest, module) : [];
    const extra = keys
      .filter((key) => !base.has(key) && !formKeys.has(key))
      .map((key) => manifest[key]!.file)
      .filter((file) => file.endsWith('.js'));
    return { when, gzip: extra.reduce((sum, file) => sum + gzip(file), 0) };
  });

  return { entry: entryKey, sizes, publicGzip, adminGzip, lazyCount: lazyKeys.length, routes, deferred };
}

/** What a public page loads on use, after it has rendered (docs/decisions/103). */
export const ON_USE_MODULES: Record<string, string> = {
  'first notification (react-toastify and its container)': 'src/lib/toaster.tsx',
  'sign-in, activation link or registration (answer checks: zod and the contracts schemas)':
    'src/features/auth/auth-calls.ts',
  'snow, when the public settings turn it on': 'src/features/settings/components/snow.tsx',
};

const MUI_THEME_LAYOUT = 'src/app/layouts/mui-theme-layout.tsx';

/**
 * The lazy modules each public route loads before it renders: its page and the layout that brings MUI's
 * theme (none for `/`, rendered by the entry chunk itself).
 */
export const PUBLIC_ROUTE_MODULES: Record<string, string[]> = {
  '/': [],
  '/login': [MUI_THEME_LAYOUT, 'src/features/auth/pages/login-page.tsx'],
  '/register': [MUI_THEME_LAYOUT, 'src/features/auth/pages/register-page.tsx'],
  '/forgot-password': [MUI_THEME_LAYOUT, 'src/features/auth/pages/forgot-password-page.tsx'],
  '/started': [MUI_THEME_LAYOUT, 'src/features/landing/pages/started-page.tsx'],
};

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function renderSection(result: ReturnType<typeof measure>, buildId: string): string {
  const rows = result.sizes
    .sort((a, b) => b.gzip - a.gzip)
    .map((item) => `| \`${item.file}\` | ${kb(item.raw)} | ${kb(item.gzip)} |`)
    .join('\n');
  const verdict = result.publicGzip <= PUBLIC_JS_BUDGET_BYTES ? 'within' : '**over**';
  return `## Web bundle

Measured by \`apps/web/scripts/measure-bundle.ts\` after \`vite build\` (build \`${buildId}\`, ${new Date().toISOString().slice(0, 10)}).
Public pages load the entry chunk and its static imports; the account pages' content and the whole admin area
(${result.lazyCount} lazy chunks) load on demand.

| public JavaScript (gzip, level 9) | budget | verdict |
|---|---|---|
| **${kb(result.publicGzip)}** | ${kb(PUBLIC_JS_BUDGET_BYTES)} | ${verdict} |

| file (entry and its static imports) | raw | gzip |
|---|---|---|
${rows}

Everything a first visit to each public page downloads before it renders (entry, its static imports,
workbox-window, and the page's own lazy chunk and MUI theme layout with their imports). The form pages
carry neither zod nor react-hook-form nor MUI's input family; the landing page carries no MUI at all
(docs/decisions/103):

| page | gzip | within ${kb(PUBLIC_JS_BUDGET_BYTES)} |
|---|---|---|
${result.routes.map((route) => `| \`${route.path}\` | ${kb(route.total)} | ${route.total <= PUBLIC_JS_BUDGET_BYTES ? 'yes' : '**no**'} |`).join('\n')}

Loaded later, on use, by a page already shown (gzip, on top of the page's total):

| when | gzip |
|---|---|
${result.deferred.map((item) => `| ${item.when} | ${kb(item.gzip)} |`).join('\n')}

Admin-only JavaScript (not downloaded by visitors, not precached by the service worker): ${kb(result.adminGzip)} gzip.
`;
}

/** Replaces (or appends) only the `## Web bundle` section; other sections belong to other people. */
export function upsertSection(document: string, section: string): string {
  const start = document.indexOf('## Web bundle');
  if (start === -1) return `${document.trimEnd()}${document.trim() ? '\n\n' : ''}${section}`;
  const nextHeading = document.indexOf('\n## ', start + 1);
  const end = nextHeading === -1 ? document.length : nextHeading + 1;
  return `${document.slice(0, start)}${section}${nextHeading === -1 ? '' : '\n'}${document.slice(end)}`;
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const here = dirname(fileURLToPath(import.meta.url));
  const distDir = resolve(here, '../dist');
  const benchmarks = resolve(here, '../../../docs/benchmarks.md');
  const result = measure(distDir);
  const buildId = (JSON.parse(readFileSync(join(distDir, 'build.json'), 'utf8')) as { buildId: string })
    .buildId;
  const current = existsSync(benchmarks) ? readFileSync(benchmarks, 'utf8') : '# Benchmarks\n';
  writeFileSync(benchmarks, upsertSection(current, renderSection(result, buildId)));
  console.log(
    `public JS ${kb(result.publicGzip)} gzip (budget ${kb(PUBLIC_JS_BUDGET_BYTES)}); admin-only ${kb(result.adminGzip)}`,
  );
  for (const item of result.sizes) console.log(`  ${item.file}  ${kb(item.gzip)}`);
  for (const route of result.routes) console.log(`  page ${route.path}: ${kb(route.total)}`);
  for (const item of result.deferred) console.log(`  on use, ${item.when}: ${kb(item.gzip)}`);
  const overBudget = result.routes.filter((route) => route.total > PUBLIC_JS_BUDGET_BYTES);
  if (result.publicGzip > PUBLIC_JS_BUDGET_BYTES || overBudget.length > 0) process.exitCode = 1;
}
