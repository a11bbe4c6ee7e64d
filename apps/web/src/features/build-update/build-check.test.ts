import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { fetchLatestBuildId, isChunkLoadError, isNewerBuild } from './build-check.ts';

describe('build check', () => {
  it('sees a newer build only when the server announces another id', () => {
    expect(isNewerBuild('a1', 'a1')).toBe(false);
    expect(isNewerBuild('a1', 'b2')).toBe(true);
    expect(isNewerBuild('a1', undefined)).toBe(false);
    expect(isNewerBuild('a1', '')).toBe(false);
  });

  it('recognises lazy chunk failures of Chromium, Firefox and Safari', () => {
    expect(
      isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: http://x/a.js')),
    ).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('boom'))).toBe(false);
  });

  it('reads /build.json from a real HTTP server, and gives up quietly on errors', async () => {
    let body = JSON.stringify({ buildId: 'build-42' });
    const server = createServer((request, response) => {
      expect(request.url).toBe('/build.json');
      response.writeHead(body ? 200 : 500, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const fetchAt: typeof fetch = (input, init) => fetch(new URL(String(input), base), init);
    try {
      expect(await fetchLatestBuildId(fetchAt)).toBe('build-42');
      body = '';
      expect(await fetchLatestBuildId(fetchAt)).toBeUndefined();
    } finally {
      server.close();
    }
  });
});
