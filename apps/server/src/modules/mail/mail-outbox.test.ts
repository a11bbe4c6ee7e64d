import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';
import { countMailOutbox } from './mail-outbox.service.ts';
import { mailOutbox } from './mail-outbox.table.ts';

/**
 * Security issue: mail was sent inside the request (forgot-password timing told which accounts
 * exist) and lost when SMTP failed. Now requests queue it; a worker sends it with retries. The SMTP
 * receiver here is real and answers 451 while "down".
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ mail: { pollMs: 50, retryBaseMs: 100, maxAttempts: 4 } });
});
afterAll(async () => server?.close());

const rowsTo = (to: string) => server.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, to));

describe('mail outbox', () => {
  it('keeps a mail through an SMTP outage and delivers it once SMTP is back', async () => {
    const user = await server.createUser();
    server.mail.isRefusing = true;
    const answer = await apiClient(server)('POST', '/auth/forgot-password', { email: user.user.email });
    expect(answer.status).toBe(200);
    await vi.waitFor(async () => {
      const [row] = await rowsTo(user.user.email);
      expect(row?.attempts).toBeGreaterThanOrEqual(1);
      expect(row?.lastError).toContain('451');
    });
    expect((await countMailOutbox(server.ctx)).pending).toBeGreaterThanOrEqual(1);

    server.mail.isRefusing = false;
    const mail = await server.mail.waitFor({ to: user.user.email, subject: 'Réinitialisation' });
    expect(mail.text).toContain('/forgot-password?token=');
    await vi.waitFor(async () => {
      const [row] = await rowsTo(user.user.email);
      expect(row?.sentAt).not.toBeNull();
      expect(row?.bodySealed).toBeNull(); // the one-time link is not kept once sent
    });
  });

  it('gives up after the last attempt and keeps the mail visible as failed', async () => {
    const user = await server.createUser();
    server.mail.isRefusing = true;
    try {
      await apiClient(server)('POST', '/auth/forgot-password', { email: user.user.email });
      await vi.waitFor(
        async () => {
          const [row] = await rowsTo(user.user.email);
          expect(row?.failedAt).not.toBeNull();
          expect(row?.attempts).toBe(4);
        },
        { timeout: 10_000 },
      );
      expect((await countMailOutbox(server.ctx)).failed).toBeGreaterThanOrEqual(1);
    } finally {
      server.mail.isRefusing = false;
    }
  });
});
