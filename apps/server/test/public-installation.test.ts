import { describe, expect, it } from 'vitest';
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
    } finally {
      await server.close();
    }
  });
});
