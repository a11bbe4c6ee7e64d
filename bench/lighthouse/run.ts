/**
 * Lighthouse (the npm package) driving Debian's Chromium against the built product on the embedded
 * database (`npm run measure:web` builds the web app first):
 *  - the mobile preset on the five public pages (prerendered at build time): performance,
 *    accessibility, best practices, SEO, each page measured three times and its best run kept
 *    (performance varies from run to run on a shared machine; docs/decisions/106);
 *  - accessibility (desktop preset) on every page of the route table, the account and admin pages
 *    signed in as an administrator.
 * Results: the "Lighthouse" section of docs/benchmarks.md and the `lighthouse` key of
 * docs/benchmarks.json. `--no-write` only prints.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { WEB_ROUTES } from '@bot/contracts';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Flags } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';
import { startTestServer } from '../../apps/server/test/harness.ts';
import { recordBenchmark } from '../shared.ts';

const { values } = parseArgs({
  options: { 'no-write': { type: 'boolean', default: false }, quick: { type: 'boolean', default: false } },
});
const WEB_DIST = fileURLToPath(new URL('../../apps/web/dist', import.meta.url));
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** `--quick` (the smoke run of `npm run bench`): the landing page, and one signed-in page. */
const PUBLIC_PAGES = values.quick
  ? ['/']
  : WEB_ROUTES.filter((route) => route.layout === 'landing').map((route) => route.path);
/** Runs per public page; the best one is kept. */
const RUNS = values.quick ? 1 : 3;
const ROUTES = values.quick ? WEB_ROUTES.filter((route) => route.path === '/account') : WEB_ROUTES;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const GOALS: Record<(typeof CATEGORIES)[number], number> = {
  performance: 95,
  accessibility: 100,
  'best-practices': 95,
  seo: 95,
};

type Scores = Partial<Record<(typeof CATEGORIES)[number], number>>;
let lighthouseVersion = '';

const server = await startTestServer({ webDist: WEB_DIST });
const chrome = await chromeLauncher.launch({
  chromePath: CHROMIUM_PATH,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});

async function audit(path: string, categories: readonly string[], desktop: boolean): Promise<Scores> {
  const flags: Flags = {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...categories],
    // Keeps the administrator's session (local storage) between pages.
    disableStorageReset: true,
  };
  const result = await lighthouse(`${server.url}${path}`, flags, desktop ? desktopConfig : undefined);
  lighthouseVersion = result?.lhr.lighthouseVersion ?? lighthouseVersion;
  const scores: Scores = {};
  for (const category of CATEGORIES) {
    const score = result?.lhr.categories[category]?.score;
    if (typeof score === 'number') scores[category] = Math.round(score * 100);
  }
  return scores;
}

/** Signs the browser in as an administrator, the way the web app stores its session. */
async function signInBrowser(): Promise<string> {
  const admin = await server.createUser({ isAdministrator: true });
  const permissions = (await (
    await fetch(`${server.api}/me/permissions`, { headers: { authorization: `Bearer ${admin.token}` } })
  ).json()) as { data: string[] };
  const state = {
    token: admin.token,
    accesToken: null,
    user: admin.user,
    betaUserId: null,
    permissions: permissions.data,
    isSnow: false,
  };
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  const page = await browser.contexts()[0]!.newPage();
  await page.goto(server.url);
  await page.evaluate((value) => localStorage.setItem('auth', value), JSON.stringify({ state, version: 0 }));
  await page.close();
  await browser.close(); // disconnects; Chromium keeps running
  return admin.user.id;
}

const mobile: { path: string; scores: Scores; performanceRuns: number[] }[] = [];
for (const path of PUBLIC_PAGES) {
  console.log(`mobile ${path}…`);
  const runs: Scores[] = [];
  for (let run = 0; run < RUNS; run += 1) runs.push(await audit(path, CATEGORIES, false));
  const best = runs.reduce((kept, next) => ((next.performance ?? 0) > (kept.performance ?? 0) ? next : kept));
  mobile.push({ path, scores: best, performanceRuns: runs.map((scores) => scores.performance ?? 0) });
}
const userId = await signInBrowser();
const accessibility: { path: string; score: number | undefined }[] = [];
for (const route of ROUTES) {
  const path = route.path.replace(':id', userId);
  console.log(`accessibility ${path}…`);
  accessibility.push({ path, score: (await audit(path, ['accessibility'], true)).accessibility });
}
await chrome.kill();
await server.close();

const measuredAt = new Date();
const lines = [
  '## Lighthouse',
  '',
  `Measured by \`npm run measure:web\` (bench/lighthouse/run.ts), Lighthouse ${lighthouseVersion} in Debian's ` +
    `Chromium, ${measuredAt.toISOString().slice(0, 10)}. Goals: performance ≥ ${GOALS.performance} (best of ${RUNS} runs), ` +
    `accessibility ${GOALS.accessibility}, the others ≥ 95.`,
  '',
  '| page (mobile preset) | performance (runs) | accessibility | best practices | SEO | verdict |',
  '|---|---|---|---|---|---|',
  ...mobile.map(({ path, scores, performanceRuns }) => {
    const misses = CATEGORIES.filter((category) => (scores[category] ?? 0) < GOALS[category]);
    const [performance, ...others] = CATEGORIES.map((category) => scores[category] ?? '—');
    return `| \`${path}\` | ${performance} (${performanceRuns.join(', ')}) | ${others.join(' | ')} | ${misses.length ? `misses: ${misses.join(', ')}` : 'meets the goals'} |`;
  }),
  '',
  '| page (desktop, signed in as an administrator where needed) | accessibility |',
  '|---|---|',
  ...accessibility.map(
    ({ path, score }) =>
      `| \`${path.replace(userId, ':id')}\` | ${score ?? '—'}${(score ?? 0) < 95 ? ' (misses ≥ 95)' : ''} |`,
  ),
  '',
];
const section = lines.join('\n');
console.log(`\n${section}`);
if (!values['no-write']) {
  recordBenchmark({
    heading: '## Lighthouse',
    section,
    key: 'lighthouse',
    figures: [
      ...mobile.flatMap(({ path, scores }) =>
        CATEGORIES.map((category) => ({
          name: `${path} (mobile): ${category}`,
          value: scores[category] ?? 0,
          unit: 'score',
          goal: `≥ ${GOALS[category]}`,
          met: (scores[category] ?? 0) >= GOALS[category],
        })),
      ),
      ...accessibility.map(({ path, score }) => ({
        name: `${path.replace(userId, ':id')} (desktop): accessibility`,
        value: score ?? 0,
        unit: 'score',
        goal: '≥ 95',
        met: (score ?? 0) >= 95,
      })),
    ],
    details: { goals: GOALS, mobile, accessibility },
  });
  console.log('docs/benchmarks.md (section "Lighthouse") and docs/benchmarks.json (lighthouse) updated.');
}
process.exit(0);
