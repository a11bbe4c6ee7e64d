import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, PGLITE_EXTENSIONS } from '../src/db/client.ts';
import { apiClient, startTestServer, type TestServer } from './harness.ts';
import { metricValue } from './helpers/metrics.ts';

/**
 * Operations round 3, defect 4: 265 commits apart, both ends said 0.1.0 and 9 migrations ran without
 * a word. The product's version (the root package.json, semver, the one CHANGELOG.md names) is in
 * health, metrics and the start-up log; every migration applied is logged by name.
 */
const productVersion = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
const changelog = readFileSync(new URL('../../../CHANGELOG.md', import.meta.url), 'utf8');
const journal = (
  JSON.parse(readFileSync(new URL('../drizzle/meta/_journal.json', import.meta.url), 'utf8')) as {
    entries: { tag: string }[];
  }
).entries.map((entry) => entry.tag);

let server: TestServer;
const lines: string[] = [];
beforeAll(async () => {
  server = await startTestServer({ onLogLine: (line) => lines.push(line) });
});
afterAll(() => server?.close());

describe('the version an operator sees', () => {
  it('is semver, named by the changelog with its upgrade notes', () => {
    expect(productVersion).toMatch(/^\d+\.\d+\.\d+$/);
    expect(changelog).toContain(`## ${productVersion}`);
    expect(changelog).toMatch(/### (Upgrade notes|Notes de mise à jour)/);
  });

  it('is in liveness, the metrics and the start-up log', async () => {
    const call = apiClient(server);
    expect((await call('GET', '/healthz')).body).toEqual({ status: 'ok', version: productVersion });
    expect(
      await metricValue(server.app, 'build_info', { version: productVersion, node: process.version }),
    ).toBe(1);
    expect(lines.some((line) => line.includes(`"msg":"version ${productVersion}"`))).toBe(true);
  });
});

describe('migrations', () => {
  it('answers the migrations it applies, oldest first, and none the second time', async () => {
    const database = openDatabase({ pglite: new PGlite({ extensions: PGLITE_EXTENSIONS }) });
    try {
      expect(await database.migrate()).toEqual(journal);
      expect(await database.migrate()).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
