import { count } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { mailOutbox } from '../../src/modules/mail/index.ts';
import { apiClient, startTestServer, TEST_PASSWORD, type TestServer } from '../harness.ts';
import { MailReceiver } from '../mail-receiver.ts';

/** Mails ever queued in the outbox (sent or not). */
export async function queuedMails(server: TestServer): Promise<number> {
  const [row] = await server.ctx.db.select({ total: count() }).from(mailOutbox);
  return row?.total ?? 0;
}

let counter = 0;
/** A new registration's fields (unique in the test file's database). */
export function freshAccount() {
  counter += 1;
  return { username: `alice${counter}`, email: `alice${counter}@example.test`, password: TEST_PASSWORD };
}

/** Registers through the API and activates from the mail's link, as a customer would. */
export async function registerAndActivate(server: TestServer, input = freshAccount()) {
  const call = apiClient(server);
  const registered = await call<{ user: { id: string } }>('POST', '/auth/register', input);
  expect(registered.status).toBe(201);
  const link = MailReceiver.linkOf(await server.mail.waitFor({ to: input.email, subject: 'Activez' }));
  const activated = await call('POST', '/auth/activate', {
    username: link.searchParams.get('username'),
    token: link.searchParams.get('token'),
  });
  expect(activated.body).toEqual({ success: true });
  return { ...input, id: registered.body.user.id };
}

/**
 * One server for an auth suite, behind one trusted proxy (TRUST_PROXY=1: tests speak from several
 * addresses through X-Forwarded-For), with a low sign-in limit per account and address.
 */
export function authSuite(onStarted: (server: TestServer) => void): void {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer({
      env: { TRUST_PROXY: '1' },
      rateLimits: { loginPerAccountAndIp: { max: 3, windowMs: 60_000 } },
    });
    onStarted(server);
  });
  afterAll(() => server?.close());
}
