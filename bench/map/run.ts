/**
 * Admin map benchmark (issue 5): headless Debian Chromium renders /admin/map, first empty, then fed
 * 10,000 game accounts that each move once per second, in the same run. Reports frame time p50/p95,
 * frames per second, the renderer's own draw time, and the ratio to the empty map. It also checks
 * that the map page's chunk is not downloaded by public or account pages.
 *
 * Feed: a hook in the page (`window.__adminMap.inject`, only in the instrumented build this script
 * makes: `vite build --mode instrumented` into apps/web/dist.instrumented) writes batches to the query
 * cache exactly as the admin socket's handlers do (lib/socket/fleet-cache.ts applyBatch / applySnapshot); each batch goes through JSON.stringify + JSON.parse first, to charge the decode cost
 * a socket message would have. The server, sockets and network are not part of this measurement
 * (bench/realtime measures them).
 *
 * Run: npx tsx bench/map/run.ts [--accounts 10000] [--seconds 10] [--json out.json]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { ensureTemplate } from '../../apps/server/test/database.ts';
import { startTestServer } from '../../apps/server/test/harness.ts';
import { compared, percentile, recordBenchmark } from '../shared.ts';
import { FLEET_WORKER } from './fleet-worker.ts';
import type {} from './page-instruments.ts';
import { prepareSocketFleet, type SocketFleet } from './socket-fleet.ts';

const { values } = parseArgs({
  options: {
    accounts: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '10' },
    'accounts-per-bot': { type: 'string', default: '1' },
    json: { type: 'string' },
    rebuild: { type: 'boolean', default: false },
    /** hook: in-page worker + test hook (default); socket: SDK bots through the real admin socket. */
    feed: { type: 'string', default: 'hook' },
    'no-write': { type: 'boolean', default: false },
  },
});
const ACCOUNTS = Number(values.accounts);
const SECONDS = Number(values.seconds);
const PER_BOT = Math.max(1, Number(values['accounts-per-bot']));
const BATCHES_PER_SECOND = 4; // the hub flushes the admin feed every 250 ms
const FEED = values.feed === 'socket' ? 'socket' : 'hook';

const webDir = fileURLToPath(new URL('../../apps/web/', import.meta.url));
// The instrumented build: the production bundle has no `window.__adminMap` (e2e/live-map checks it).
const webDist = path.join(webDir, 'dist.instrumented');

interface PhaseResult {
  label: string;
  frames: number;
  seconds: number;
  fps: number;
  frameP50: number;
  frameP95: number;
  frameMax: number;
  drawP50: number;
  drawP95: number;
  draws: number;
  accountsDrawn: number;
  batches: number;
  /** JSON.parse of one batch (what a socket message costs to decode). */
  parseP50: number;
  parseP95: number;
  /** Applying one batch: query cache update, typed-array update. */
  applyP50: number;
  applyP95: number;
}

/** The "Map, last run" section and the `map` figures: each loaded phase against the empty map. */
function recordMap(results: PhaseResult[], report: unknown): void {
  const [empty, ...loaded] = results as [PhaseResult, ...PhaseResult[]];
  const f = (value: number) => value.toFixed(1);
  const section = [
    '## Map, last run',
    '',
    `Measured by \`npm run bench:map\` (\`bench/map/\`) on ${new Date().toISOString().slice(0, 16)}Z, ` +
      `${os.cpus().length} cores, headless Chromium, feed "${FEED}": frame time of /admin/map against the empty map.`,
    '',
    '| phase | fps | frame p50 | frame p95 | draw p95 | frame p95 / empty |',
    '|---|---|---|---|---|---|',
    ...results.map(
      (phase) =>
        `| ${phase.label} | ${f(phase.fps)} | ${f(phase.frameP50)} ms | ${f(phase.frameP95)} ms | ` +
        `${f(phase.drawP95)} ms | ${f(phase.frameP95 / empty.frameP95)} |`,
    ),
    '',
  ].join('\n');
  recordBenchmark({
    heading: '## Map, last run',
    section,
    key: 'map',
    figures: loaded.flatMap((phase) => [
      compared({
        name: `${phase.label}: frames per second`,
        value: phase.fps,
        unit: 'fps',
        baseline: empty.fps,
      }),
      compared({
        name: `${phase.label}: frame p95`,
        value: phase.frameP95,
        unit: 'ms',
        baseline: empty.frameP95,
      }),
    ]),
    details: report,
  });
}

/** Records rAF intervals (the frame time a user sees) for `seconds`, with the renderer's draw times. */
async function measure(page: Page, label: string, seconds: number): Promise<PhaseResult> {
  const raw = await page.evaluate(async (durationMs) => {
    const map = window.__adminMap;
    if (!map) throw new Error('map not mounted');
    const drawStart = map.renderer.stats.drawn;
    map.renderer.stats.drawMs.length = 0;
    const bench = window as unknown as {
      __benchBatches?: number;
      __benchParseMs?: number[];
      __benchApplyMs?: number[];
    };
    const batchesStart = bench.__benchBatches ?? 0;
    if (bench.__benchParseMs) bench.__benchParseMs.length = 0;
    if (bench.__benchApplyMs) bench.__benchApplyMs.length = 0;
    const stamps: number[] = [];
    await new Promise<void>((resolve) => {
      const started = performance.now();
      const loop = (now: number) => {
        stamps.push(now);
        if (now - started < durationMs) requestAnimationFrame(loop);
        else resolve();
      };
      requestAnimationFrame(loop);
    });
    return {
      stamps,
      drawMs: [...map.renderer.stats.drawMs],
      draws: map.renderer.stats.drawn - drawStart,
      accounts: map.buffers.size,
      batches: (bench.__benchBatches ?? 0) - batchesStart,
      parseMs: [...(bench.__benchParseMs ?? [])],
      applyMs: [...(bench.__benchApplyMs ?? [])],
    };
  }, seconds * 1000);
  const intervals = raw.stamps.slice(1).map((stamp, index) => stamp - (raw.stamps[index] as number));
  const sorted = [...intervals].sort((a, b) => a - b);
  const drawSorted = [...raw.drawMs].sort((a, b) => a - b);
  const parseSorted = [...raw.parseMs].sort((a, b) => a - b);
  const applySorted = [...raw.applyMs].sort((a, b) => a - b);
  const elapsed = ((raw.stamps.at(-1) as number) - (raw.stamps[0] as number)) / 1000;
  return {
    label,
    frames: intervals.length,
    seconds: elapsed,
    fps: intervals.length / elapsed,
    frameP50: percentile(sorted, 50),
    frameP95: percentile(sorted, 95),
    frameMax: sorted.at(-1) ?? Number.NaN,
    drawP50: percentile(drawSorted, 50),
    drawP95: percentile(drawSorted, 95),
    draws: raw.draws,
    accountsDrawn: raw.accounts,
    batches: raw.batches,
    parseP50: percentile(parseSorted, 50),
    parseP95: percentile(parseSorted, 95),
    applyP50: percentile(applySorted, 50),
    applyP95: percentile(applySorted, 95),
  };
}

async function main() {
  if (values.rebuild || !existsSync(path.join(webDist, 'index.html'))) {
    execFileSync(
      process.execPath,
      [
        path.join(webDir, '../../node_modules/vite/bin/vite.js'),
        'build',
        '--mode',
        'instrumented',
        '--outDir',
        webDist,
        '--logLevel',
        'warn',
      ],
      {
        cwd: webDir,
        stdio: 'inherit',
      },
    );
  }
  await ensureTemplate();
  const server = await startTestServer({ webDist });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-dev-shm-usage',
    ],
  });
  try {
    const admin = await server.createUser({ isAdministrator: true, permissions: ['can_manageMap'] });
    const fleetPlan =
      FEED === 'socket'
        ? await prepareSocketFleet(server, {
            bots: Math.ceil(ACCOUNTS / PER_BOT),
            accountsPerBot: PER_BOT,
            onProgress: (text) => console.error(text),
          })
        : undefined;
    let fleet: SocketFleet | undefined;
    const context = await browser.newContext({
      baseURL: server.url,
      viewport: { width: 1600, height: 1000 },
    });
    // tsx (esbuild keepNames) wraps named functions in __name(); functions sent to the page need it.
    await context.addInitScript({ content: 'window.__name = (fn) => fn;' });
    // The worker is served from the page's origin (the CSP allows workers from 'self' only).
    await context.route('**/__bench/fleet-worker.js', (route) =>
      route.fulfill({ status: 200, contentType: 'text/javascript', body: FLEET_WORKER }),
    );
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });

    // Lazy loading: public and account pages never download the map page's chunk.
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    await page.goto('/login');
    await page.locator('input[name="username"]').fill(admin.user.username);
    await page.locator('input[name="password"]').fill(admin.password);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    // Staff land on the admin dashboard, customers on their account.
    await page.waitForURL((url) => url.pathname !== '/login');
    await page.waitForLoadState('networkidle');
    const beforeMap = scripts.filter((name) => /map-page/.test(name));
    await page.goto('/admin/map');
    await page.locator('[data-testid="map-canvas"]').waitFor();
    await page.waitForFunction(() => Boolean(window.__adminMap?.inject));
    const mapChunks = scripts.filter((name) => /map-page/.test(name));
    // Fit the whole world (the default view): every account is inside the canvas.
    await page.waitForTimeout(1000);

    const empty = await measure(page, 'empty map', SECONDS);

    if (fleetPlan) {
      fleet = await fleetPlan.start();
      console.error(`fleet: ${fleet.bots} bots, ${fleet.accounts} accounts through the real admin socket`);
      await page.waitForFunction((n) => (window.__adminMap?.buffers.size ?? 0) >= n, fleet.accounts, {
        timeout: 120_000,
      });
    } else {
      // 10,000 accounts (PER_BOT per bot), each bot sending one state per second, in 4 batches a second.
      // A Web Worker plays the fleet and posts JSON text, as a socket would hand it over; the page
      // thread only parses it and applies it, exactly what it does with a real admin socket message.
      await page.evaluate(
        ({ accounts, perBot, batchesPerSecond }) => {
          const hook = window.__adminMap?.inject;
          if (!hook) throw new Error('test hook missing');
          const worker = new Worker('/__bench/fleet-worker.js');
          const w = window as unknown as {
            __benchBatches: number;
            __benchWorker: Worker;
            __benchParseMs: number[];
            __benchApplyMs: number[];
          };
          w.__benchBatches = 0;
          w.__benchParseMs = [];
          w.__benchApplyMs = [];
          w.__benchWorker = worker;
          worker.onmessage = (event: MessageEvent<{ snapshot: boolean; json: string }>) => {
            const started = performance.now();
            const states = JSON.parse(event.data.json);
            const parsed = performance.now();
            hook(states, event.data.snapshot);
            if (!event.data.snapshot) {
              w.__benchBatches++;
              w.__benchParseMs.push(parsed - started);
              w.__benchApplyMs.push(performance.now() - parsed);
            }
          };
          worker.postMessage({ accounts, perBot, batchesPerSecond });
        },
        { accounts: ACCOUNTS, perBot: PER_BOT, batchesPerSecond: BATCHES_PER_SECOND },
      );
    }
    await page.waitForTimeout(1500);
    const loaded = await measure(page, `${ACCOUNTS.toLocaleString('en')} moving accounts`, SECONDS);
    const shownCount = await page.getByTestId('map-accounts-count').getAttribute('data-count');

    // Zoomed in (accounts drawn one by one, no clustering) and zoomed out (clusters).
    await page.evaluate(() => {
      const r = window.__adminMap?.renderer;
      if (!r) return;
      r.view.scale = 14;
      r.view.cx = 0;
      r.view.cy = 0;
      r.markDirty();
      (r as unknown as { isBackgroundStale: boolean }).isBackgroundStale = true;
    });
    await page.waitForTimeout(500);
    const zoomed = await measure(page, `${ACCOUNTS.toLocaleString('en')} moving, zoomed in`, SECONDS);
    await page.evaluate(() => {
      const r = window.__adminMap?.renderer;
      if (!r) return;
      r.view.scale = 3;
      r.markDirty();
      (r as unknown as { isBackgroundStale: boolean }).isBackgroundStale = true;
    });
    await page.waitForTimeout(500);
    const clustered = await measure(page, `${ACCOUNTS.toLocaleString('en')} moving, clustered`, SECONDS);
    if (fleet) await fleet.stop();
    else
      await page.evaluate(() => (window as unknown as { __benchWorker: Worker }).__benchWorker.terminate());
    const scale = await page.evaluate(() => window.__adminMap?.renderer.view.scale);

    const results = [empty, loaded, zoomed, clustered];
    const report = {
      date: new Date().toISOString(),
      cpus: os.cpus().length,
      loadAverage: os.loadavg().map((value) => Number(value.toFixed(2))),
      feed: FEED,
      fleet: fleet ? { bots: fleet.bots, accounts: fleet.accounts, ...fleet.counters } : undefined,
      accounts: ACCOUNTS,
      accountsPerBot: PER_BOT,
      batchesPerSecond: BATCHES_PER_SECOND,
      viewport: '1600x1000',
      fitScale: scale,
      mapCountShown: Number(shownCount),
      lazy: { mapChunkBeforeAdmin: beforeMap, mapChunkOnAdminMap: mapChunks },
      results,
      ratios: results.slice(1).map((result) => ({
        label: result.label,
        frameP50: result.frameP50 / empty.frameP50,
        frameP95: result.frameP95 / empty.frameP95,
        fps: result.fps / empty.fps,
      })),
    };
    console.log(JSON.stringify(report, null, 2));
    if (values.json) writeFileSync(values.json, JSON.stringify(report, null, 2));
    if (!values['no-write']) recordMap(results, report);
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
