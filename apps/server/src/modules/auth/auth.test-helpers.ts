import { count } from 'drizzle-orm';
import { expect } from 'vitest';
import { apiClient, TEST_PASSWORD, type TestServer } from '../../../test/harness.ts';
import { MailReceiver } from '../../../test/mail-receiver.ts';
import { mailOutbox } from '../mail/mail-outbox.table.ts';

/** Mails ever queued in the outbox (sent or not). */
export async function queuedMails(server: TestServer): Promise<number> {
  const [row] = await server.app.ctx.db.select({ total: count() }).from(mailOutbox);
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
