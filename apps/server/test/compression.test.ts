import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';
import { rawGet } from './raw-http.ts';

/**
 * Performance issue: the server compressed nothing (503 KB of JavaScript on the landing page). Built
 * files are sent precompressed by Accept-Encoding with long-lived caching for hashed assets; dynamic
 * answers above 1 KB are compressed on the fly.
 */
let server: TestServer;
const dist = mkdtempSync(path.join(os.tmpdir(), 'bot-compressed-dist-'));
const script = `export const greeting = ${JSON.stringify('bonjour '.repeat(400))};\n`;

beforeAll(async () => {
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(
    path.join(dist, 'index.html'),
    `<!doctype html><title>x</title>${'<!-- shell -->'.repeat(200)}`,
  );
  writeFileSync(path.join(dist, 'build.json'), JSON.stringify({ buildId: 'compressed' }));
  const asset = path.join(dist, 'assets', 'index-abc123.js');
  writeFileSync(asset, script);
  writeFileSync(`${asset}.br`, brotliCompressSync(script));
  writeFileSync(`${asset}.gz`, gzipSync(script));
  server = await startTestServer({ webDist: dist });
});
afterAll(async () => {
  await server?.close();
  rmSync(dist, { recursive: true, force: true });
});

/** The raw answer: encoding, cache header and the bytes as they crossed the wire. */
const fetchRaw = (pathname: string, acceptEncoding?: string) =>
  rawGet(
    new URL(pathname, server.url).toString(),
    acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
  );

describe('compression and caching', () => {
  it('sends the precompressed build file the browser accepts, cached for a year', async () => {
    const brotli = await fetchRaw('/assets/index-abc123.js', 'gzip, deflate, br');
    expect(brotli.status).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.body.equals(brotliCompressSync(script))).toBe(true);
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotli.body.length).toBeLessThan(script.length / 10);

    const gzip = await fetchRaw('/assets/index-abc123.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const plain = await fetchRaw('/assets/index-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
  });

  it('compresses the app shell and large JSON on the fly, not small answers', async () => {
    const shell = await fetchRaw('/login', 'br');
    expect(shell.headers['content-encoding']).toBe('br');
    expect(shell.headers['cache-control']).toBe('no-cache');
    const docs = await fetchRaw('/api/docs/json', 'gzip, br');
    expect(docs.headers['content-encoding']).toBe('br');
    const health = await fetchRaw('/api/healthz', 'gzip, br');
    expect(health.headers['content-encoding']).toBeUndefined();
  });
});
