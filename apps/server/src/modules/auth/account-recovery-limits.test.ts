import { and, count, eq, like } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { apiClient, type TestServer } from '../../../test/harness.ts';
import { authSuite, freshAccount, registerAndActivate } from '../../../test/helpers/auth.ts';
import { MailReceiver } from '../../../test/mail-receiver.ts';
import { mailOutbox } from '../mail/index.ts';
import { OUTSTANDING_LINKS_PER_MAILBOX } from './auth-limits.ts';

/**
 * Issue 30: three anonymous requests from three addresses made the owner's own `forgot-password`
 * (and `resend-confirmation`) answer 429 for an hour, and the 429 itself told which e-mails have an
 * account. Now: counted per (account, address) with an account-wide cap out of a handful of
 * addresses' reach, always 200, the mail skipped quietly when over (and, since issue 43, when the
 * mailbox already holds its few valid links). Behind one trusted proxy
 * (TRUST_PROXY=1) each test speaks from several addresses.
 */
let server: TestServer;
let call: ReturnType<typeof apiClient>;
authSuite((started) => {
  server = started;
  call = apiClient(server);
});

/** Mails queued for an address with a subject starting so (the request queues them itself). */
async function mailsTo(address: string, subject: string): Promise<number> {
  const [row] = await server.ctx.db
    .select({ total: count() })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to, address), like(mailOutbox.subject, `${subject}%`)));
  return row?.total ?? 0;
}

const post = (route: string, body: object, address: string) =>
  call('POST', route, body, undefined, { 'x-forwarded-for': address });

describe('strangers cannot block an account’s recovery (issues 30 and 43)', () => {
  // Issue 43: the mailbox holds at most OUTSTANDING_LINKS_PER_MAILBOX links; the owner's own
  // request is then skipped like a stranger's, and the links already mailed are theirs to use.
  it('forgot-password: ten strangers’ requests leave the owner reset links that work', async () => {
    const account = await registerAndActivate(server);
    // A tester stopped the owner's mail with seven addresses (the account-wide cap was 20).
    const strangers = Array.from({ length: 10 }, (_, i) => `192.0.2.${11 + i}`);
    for (const stranger of strangers) {
      for (let i = 0; i < 4; i++) {
        expect((await post('/auth/forgot-password', { email: account.email }, stranger)).status).toBe(200);
      }
    }
    await vi.waitFor(async () =>
      expect(await mailsTo(account.email, 'Réinitialisation')).toBe(OUTSTANDING_LINKS_PER_MAILBOX),
    );
    const own = await post('/auth/forgot-password', { email: account.email }, '198.51.100.44');
    expect(own).toMatchObject({ status: 200, body: { success: true } });
    const mail = await server.mail.waitFor({ to: account.email, subject: 'Réinitialisation' });
    const token = MailReceiver.linkOf(mail).searchParams.get('token');
    const reset = await call('POST', '/auth/reset-password', {
      token,
      password: 'Nouvelle-Lune-Sur-Le-Lac-7',
    });
    expect(reset.body).toEqual({ success: true });
  });

  it('resend-confirmation: the same, per account and address', async () => {
    const input = freshAccount();
    expect((await call('POST', '/auth/register', input)).status).toBe(201);
    for (const stranger of ['192.0.2.21', '192.0.2.22', '192.0.2.23']) {
      for (let i = 0; i < 4; i++) {
        expect((await post('/auth/resend-confirmation', { username: input.username }, stranger)).status).toBe(
          200,
        );
      }
    }
    expect(await mailsTo(input.email, 'Activez')).toBe(OUTSTANDING_LINKS_PER_MAILBOX);
    expect(
      (await post('/auth/resend-confirmation', { username: input.username }, '198.51.100.45')).status,
    ).toBe(200);
    expect(await mailsTo(input.email, 'Activez')).toBe(OUTSTANDING_LINKS_PER_MAILBOX);
    const link = MailReceiver.linkOf(await server.mail.waitFor({ to: input.email, subject: 'Activez' }));
    const activated = await call('POST', '/auth/activate', {
      username: link.searchParams.get('username'),
      token: link.searchParams.get('token'),
    });
    expect(activated.body).toEqual({ success: true });
  });
});

describe('forgot-password is no existence oracle (issue 30)', () => {
  it('answers a registered and an unknown e-mail alike, over the limits too; only the mail is skipped', async () => {
    const account = await registerAndActivate(server);
    const answersFor = async (email: string, address: string) => {
      const answers = [];
      for (let i = 0; i < 7; i++) {
        const answer = await post('/auth/forgot-password', { email: ` ${email.toUpperCase()} ` }, address);
        answers.push({
          status: answer.status,
          body: answer.body,
          retryAfter: answer.headers.get('retry-after'),
        });
      }
      return answers;
    };
    const registered = await answersFor(account.email, '203.0.113.31');
    const unknown = await answersFor('personne-ici@example.test', '203.0.113.32');
    expect(registered).toEqual(unknown);
    expect(new Set(registered.map((answer) => answer.status))).toEqual(new Set([200]));
    // Counted by the submitted e-mail, normalised: three mails, then quiet. Each is queued after
    // its answer (so timing tells nothing): wait for the third to be committed.
    await vi.waitFor(async () => expect(await mailsTo(account.email, 'Réinitialisation')).toBe(3));
  });
});
