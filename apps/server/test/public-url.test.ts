import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer } from './harness.ts';

/**
 * Issue 29: with only PORT set, every absolute link (mails, Discord, the update notice, the 426
 * refusal) named http://localhost:3000, another server or none. `PUBLIC_URL` now defaults to
 * http://localhost:<PORT>: a link handed out must lead back to this very server.
 */
let server: TestServer;
let call: ReturnType<typeof apiClient>;
const dist = mkdtempSync(path.join(os.tmpdir(), 'bot-public-url-dist-'));

beforeAll(async () => {
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Plateforme</title>');
  writeFileSync(path.join(dist, 'build.json'), JSON.stringify({ buildId: 'public-url' }));
  // An empty variable is unset: the server gets PORT (from the harness) and no PUBLIC_URL.
  server = await startTestServer({ webDist: dist, env: { PUBLIC_URL: '' } });
  call = apiClient(server);
});
afterAll(async () => {
  await server?.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('PUBLIC_URL unset', () => {
  it('follows PORT: the refusal of an outdated agent links to this server’s download page', async () => {
    const port = new URL(server.url).port;
    expect(server.ctx.config.publicUrl).toBe(`http://localhost:${port}`);

    const staff = await server.createUser({ permissions: ['can_manageSettings'] });
    expect((await call('PUT', '/admin/settings', { minBotVersion: '1.5.0' }, staff.token)).status).toBe(200);
    const owner = await server.createUser({ permissions: ['can_useGathering'] });
    const key = await call<{ data: { accessKey: string } }>('GET', '/me/bot-key', undefined, owner.token);
    const refused = await call<{ code: string; error: string }>('POST', '/bot/sessions', {
      accessKey: key.body.data.accessKey,
      hwid: 'HWID-PUBLIC-URL-1',
      version: '1.0.0',
    });
    expect(refused.status).toBe(426);
    expect(refused.body.code).toBe('BOT_VERSION_OUTDATED');
    const link = refused.body.error.match(/https?:\/\/\S+\/started/)?.[0];
    expect(link).toBe(`http://localhost:${port}/started`);

    // The link leads to this server: its page, not a refused connection or another server's.
    const page = await fetch(link!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Plateforme</title>');
  });
});
