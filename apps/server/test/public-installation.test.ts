import { DEV_TRUST_ROOT_PATH, KEY_SET_PATH } from '@bot/contracts';
import { describe, expect, it } from 'vitest';
import { keySets } from '../src/modules/licensing/index.ts';
import { PUBLIC_INSTALLATION_ENV, startTestServer } from './harness.ts';

// A production deploy that forgets its Stripe keys used to take every checkout through the sandbox:
// every offer given away. A public installation now refuses to start and names the setting.
describe('a public installation', () => {
  it('refuses to start without a payment provider, naming the settings', async () => {
    await expect(
      startTestServer({ env: { PUBLIC_URL: 'https://bots.example.fr', NODE_ENV: 'production' } }),
    ).rejects.toThrow(
      /Installation publique incomplète[\s\S]*STRIPE_SECRET_KEY[\s\S]*PAYMENT_PROVIDER=sandbox/,
    );
  });

  it('starts with the sandbox when PAYMENT_PROVIDER says so', async () => {
    const server = await startTestServer({
      env: { ...PUBLIC_INSTALLATION_ENV, PUBLIC_URL: 'https://bots.example.fr' },
    });
    try {
      const health = await fetch(`${server.api}/healthz`);
      expect(health.status).toBe(200);
      // No development root off loopback; and with no signed key set, nothing to serve.
      const root = await fetch(`${server.url}${DEV_TRUST_ROOT_PATH}`);
      expect({ status: root.status, body: await root.json() }).toMatchObject({
        status: 404,
        body: { code: 'DEV_TRUST_ROOT_ABSENT' },
      });
      await server.ctx.db.delete(keySets);
      const keySet = await fetch(`${server.url}${KEY_SET_PATH}`);
      expect({ status: keySet.status, body: await keySet.json() }).toMatchObject({
        status: 404,
        body: { code: 'KEY_SET_NOT_PUBLISHED' },
      });
    } finally {
      await server.close();
    }
  });
});
