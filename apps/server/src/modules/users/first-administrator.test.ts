import { afterEach, describe, expect, it } from 'vitest';
import { PUBLIC_INSTALLATION_ENV, startTestServer, type TestServer } from '../../../test/harness.ts';
import { ensureFirstAdministrator } from './first-administrator.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the first administrator', () => {
  it('is never given a generated password in production: a container log would keep it (docs/operations.md, "Secrets")', async () => {
    server = await startTestServer({
      env: { ...PUBLIC_INSTALLATION_ENV, PUBLIC_URL: 'https://bots.example.fr', NODE_ENV: 'production' },
    });
    await expect(ensureFirstAdministrator(server.ctx)).rejects.toThrow(
      /ADMIN_PASSWORD_FILE[\s\S]*ADMIN_PASSWORD/,
    );
  });

  it('is created with the configured password in production, and a trial installation still gets one generated', async () => {
    server = await startTestServer({
      env: {
        ...PUBLIC_INSTALLATION_ENV,
        PUBLIC_URL: 'https://bots.example.fr',
        NODE_ENV: 'production',
        ADMIN_PASSWORD: 'Premier-Admin-Du-Secret-2026',
      },
    });
    expect(await ensureFirstAdministrator(server.ctx)).toEqual({ username: 'admin', password: null });
    await server.close();
    server = await startTestServer();
    expect(await ensureFirstAdministrator(server.ctx)).toMatchObject({ password: expect.any(String) });
  });
});
