import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { errorMessage, type SdkPackage } from '@bot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';

const run = promisify(execFile);

/** A tarball as the SDK's build leaves it (`npm pack`, renamed), of a package at `version`. */
async function packSdk(version: string): Promise<string> {
  const source = await mkdtemp(path.join(os.tmpdir(), 'sdk-source-'));
  const distDir = await mkdtemp(path.join(os.tmpdir(), 'sdk-dist-'));
  await writeFile(path.join(source, 'package.json'), JSON.stringify({ name: '@bot/bot-agent', version }));
  await writeFile(path.join(source, 'index.js'), 'export const sdk = true;\n');
  const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', distDir], {
    cwd: source,
  });
  const [packed] = JSON.parse(stdout) as { filename: string }[];
  await rename(path.join(distDir, packed!.filename), path.join(distDir, 'bot-sdk.tgz'));
  await rm(source, { recursive: true });
  return distDir;
}

describe('bot makers get the SDK from the platform (issue 46.1)', () => {
  let server: TestServer;
  let distDir: string;

  beforeAll(async () => {
    distDir = await packSdk('9.8.7');
    server = await startTestServer({ env: { SDK_DIST_DIR: distDir } });
  });
  afterAll(async () => {
    await server?.close();
    await rm(distDir, { recursive: true, force: true });
  });

  it('announces the version read from the tarball and the SHA-256 of the very bytes it serves', async () => {
    const announced = await apiClient(server)<SdkPackage>('GET', '/sdk');
    expect(announced.status).toBe(200);
    expect(announced.headers.get('cache-control')).toBe('public, max-age=300');
    expect(announced.body).toMatchObject({ version: '9.8.7', url: '/sdk/bot-sdk-9.8.7.tgz' });

    const download = await fetch(`${server.api}${announced.body.url}`);
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(download.status).toBe(200);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(announced.body.sha256);
    expect(bytes.length).toBe(announced.body.size);
    expect(download.headers.get('etag')).toBe(`"${announced.body.sha256}"`);
    expect(download.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(download.headers.get('content-type')).toBe('application/gzip');
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="bot-sdk-9.8.7.tgz"');
  });

  it('serves no other version under its name', async () => {
    const other = await apiClient(server)('GET', '/sdk/bot-sdk-1.0.0.tgz');
    expect(other).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
  });

  it('says so, in French, when the SDK was not built', async () => {
    const empty = await mkdtemp(path.join(os.tmpdir(), 'sdk-none-'));
    const unbuilt = await startTestServer({ env: { SDK_DIST_DIR: empty } });
    try {
      const answer = await apiClient(unbuilt)('GET', '/sdk');
      expect(answer).toMatchObject({
        status: 503,
        body: {
          code: 'SERVICE_UNAVAILABLE',
          error: errorMessage('SERVICE_UNAVAILABLE', {
            failing: ['SDK des bots non construit (npm run build)'],
          }),
        },
      });
    } finally {
      await unbuilt.close();
      await rm(empty, { recursive: true, force: true });
    }
  });
});
