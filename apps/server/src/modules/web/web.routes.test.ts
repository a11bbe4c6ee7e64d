import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBuildId, webRoutes } from './web.routes.ts';

let app: FastifyInstance;
let dist: string;

beforeAll(async () => {
  dist = mkdtempSync(path.join(os.tmpdir(), 'web-routes-'));
  mkdirSync(path.join(dist, 'assets'));
  mkdirSync(path.join(dist, '.vite'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(path.join(dist, 'build.json'), JSON.stringify({ buildId: 'build-1' }));
  writeFileSync(path.join(dist, 'sw.js'), 'self.addEventListener("install", () => {});');
  writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1);');
  writeFileSync(path.join(dist, '.vite', 'manifest.json'), '{}');
  mkdirSync(path.join(dist, 'prerendered'));
  writeFileSync(
    path.join(dist, 'prerendered', 'login.html'),
    '<!doctype html><div id="root"><h1>Connexion</h1></div>',
  );
  app = Fastify();
  await app.register(
    async (api) => {
      api.get('/ping', async () => ({ ok: true }));
    },
    { prefix: '/api' },
  );
  await app.register(webRoutes, { distDir: dist, config: { buildCheckIntervalMs: 5000 } });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  rmSync(dist, { recursive: true, force: true });
});

const get = (url: string) => app.inject({ method: 'GET', url });

describe('web hosting', () => {
  it('serves the runtime config with the build id on disk, never cached', async () => {
    const response = await get('/config.json');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({
      apiBaseUrl: '/api',
      socketUrl: '',
      buildId: 'build-1',
      buildCheckIntervalMs: 5000,
    });

    writeFileSync(path.join(dist, 'build.json'), JSON.stringify({ buildId: 'build-2' }));
    expect((await get('/config.json')).json()).toMatchObject({ buildId: 'build-2' });
    expect(await readBuildId(path.join(dist, 'missing'))).toBe('dev');
  });

  it('sends a public page as the build prerendered it, the shell when it did not', async () => {
    for (const url of ['/login', '/login?username=x']) {
      const response = await get(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('<h1>Connexion</h1>');
    }
    expect((await get('/register')).body).toBe('<!doctype html><div id="root"></div>');
    expect((await get('/account')).body).toBe('<!doctype html><div id="root"></div>');
  });

  it('answers the app shell with 200 for every path of the route table', async () => {
    for (const url of [
      '/',
      '/login',
      '/account/whitlist',
      '/admin/users/42',
      '/admin/usersOnline',
      '/account/?x=1',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('<div id="root">');
    }
  });

  it('answers the app shell with 404 outside the route table, so the app shows its 404 page', async () => {
    for (const url of ['/nope', '/account/whitelist', '/admin/users/1/2']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body).toContain('<div id="root">');
    }
  });

  it('leaves /api and /socket.io to their own 404s', async () => {
    expect((await get('/api/ping')).json()).toEqual({ ok: true });
    const missing = await get('/api/missing');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect((await get('/socket.io/x')).statusCode).toBe(404);
  });

  it('serves build files: hashed assets for a year, the rest revalidated', async () => {
    const asset = await get('/assets/index-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.body).toBe('console.log(1);');
    expect((await get('/sw.js')).headers['cache-control']).toBe('no-cache');
    expect((await get('/build.json')).headers['cache-control']).toBe('no-cache');
    expect((await get('/index.html')).headers['cache-control']).toBe('no-cache');
    expect((await get('/favicon.svg')).headers['cache-control']).toBe('public, max-age=3600');
  });

  it('never serves dot files nor anything outside dist', async () => {
    expect((await get('/.vite/manifest.json')).statusCode).toBe(404);
    expect((await get('/assets/../../etc/passwd')).statusCode).toBe(404);
    expect((await get('/%2e%2e/%2e%2e/etc/passwd')).statusCode).toBe(404);
    expect((await get('/assets/missing.js')).statusCode).toBe(404);
  });
});
