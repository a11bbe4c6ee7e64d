import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import type { SdkPackage } from '@bot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../harness.ts';

/**
 * Attack 3: the SDK download (`GET /api/sdk`, `/api/sdk/bot-sdk-<version>.tgz`, decision 922). A
 * stranger asks for other files through the version (raw paths, not normalised by a client),
 * and tries to make a shared cache keep another answer through request headers.
 */
let server: TestServer;
let announced: SdkPackage;
let built: Buffer;

beforeAll(async () => {
  server = await startTestServer();
  const answer = await apiClient(server)<SdkPackage>('GET', '/sdk');
  expect(answer.status).toBe(200);
  announced = answer.body;
  built = await readFile(path.join(server.ctx.config.sdkDistDir, 'bot-sdk.tgz'));
});
afterAll(() => server?.close());

/** A request sent as written: no URL normalisation of `..` or `%2e`. */
function raw(
  target: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const request = http.request({ hostname, port, path: target, method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    });
    request.on('error', reject);
    request.end();
  });
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('the SDK tarball', () => {
  it('is the built tarball, byte for byte, as announced', async () => {
    const served = await raw(`/api${announced.url}`, { 'accept-encoding': 'gzip, br, deflate' });
    expect(served.status).toBe(200);
    expect(served.headers['content-encoding']).toBeUndefined();
    expect(sha256(served.body)).toBe(sha256(built));
    expect(sha256(served.body)).toBe(announced.sha256);
    expect(announced.url).toBe(`/sdk/bot-sdk-${announced.version}.tgz`);
    expect(announced.version).toMatch(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/);
  });

  it('serves nothing else through the version: traversal, encodings, NUL, case, suffixes', async () => {
    const v = announced.version;
    const targets = [
      '/api/sdk/../../../../etc/passwd',
      '/api/sdk/..%2F..%2F..%2F..%2Fetc%2Fpasswd',
      '/api/sdk/%2e%2e/%2e%2e/package.json',
      '/api/sdk/%2e%2e%2f%2e%2e%2fpackage.json',
      '/api/sdk/bot-sdk-..%2F..%2F..%2Fpackage.json.tgz',
      `/api/sdk/bot-sdk-${v}%2F..%2F..%2Findex.js.tgz`,
      `/api/sdk/bot-sdk-${v}.tgz%00.js`,
      `/api/sdk/bot-sdk-${v}.tgz%2F..`,
      `/api/sdk/BOT-SDK-${v}.TGZ`,
      `/api/sdk/bot-sdk-${v}.tgz.map`,
      `/api/sdk/bot-sdk-${v}.tgz/`,
      '/api/sdk/bot-sdk.tgz',
      '/api/sdk/index.js',
      '/api/sdk/index.d.ts',
      '/api/sdk/%5c..%5c..%5cpackage.json',
      `/api/sdk/bot-sdk-${'9'.repeat(5_000)}.tgz`,
    ];
    for (const target of targets) {
      const answer = await raw(target);
      expect(answer.status, target).toBeGreaterThanOrEqual(400);
      expect(answer.status, target).toBeLessThan(500);
      const text = answer.body.toString('utf8');
      expect(text, target).not.toMatch(/root:|"name":\s*"@bot|export |node_modules|\bat .+:\d+:\d+/);
      expect(sha256(answer.body), target).not.toBe(announced.sha256);
    }
  });
});

describe('shared caches', () => {
  it('no request header changes what /api/sdk announces or what the tarball is', async () => {
    const poisoned = {
      host: 'evil.example',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'http',
      'x-forwarded-prefix': '/evil',
      'x-original-url': '/api/sdk/../../package.json',
      'x-rewrite-url': '/api/health',
      'x-http-method-override': 'DELETE',
      forwarded: 'host=evil.example;proto=http',
    };
    const answer = await raw('/api/sdk', poisoned);
    expect(answer.status).toBe(200);
    const body = JSON.parse(
      answer.headers['content-encoding'] ? '{}' : answer.body.toString('utf8'),
    ) as Partial<SdkPackage>;
    expect(body).toEqual(announced);
    expect(answer.body.toString('utf8')).not.toContain('evil');
    const tarball = await raw(`/api${announced.url}`, poisoned);
    expect(tarball.status).toBe(200);
    expect(sha256(tarball.body)).toBe(announced.sha256);
    expect(tarball.headers['cache-control']).toBe('public, max-age=86400');
  });

  it('an answer that a cache may keep compressed says it varies with Accept-Encoding', async () => {
    const compressed = await raw('/api/sdk', { 'accept-encoding': 'gzip' });
    expect(compressed.status).toBe(200);
    if (compressed.headers['content-encoding'])
      expect(String(compressed.headers.vary).toLowerCase()).toContain('accept-encoding');
    const tarball = await raw(`/api${announced.url}`, { 'accept-encoding': 'gzip' });
    expect(tarball.headers['content-encoding']).toBeUndefined();
  });

  it('a cookie or an Authorization header does not make the public answer private, nor is echoed', async () => {
    const answer = await raw(`/api${announced.url}`, {
      cookie: 'session=secret-cookie-value',
      authorization: 'Bearer secret-bearer-value',
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['set-cookie']).toBeUndefined();
    expect(JSON.stringify(answer.headers)).not.toMatch(/secret-(cookie|bearer)-value/);
    expect(sha256(answer.body)).toBe(announced.sha256);
  });
});
