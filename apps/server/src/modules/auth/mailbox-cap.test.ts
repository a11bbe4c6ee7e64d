import { and, count, eq, inArray, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';
import { freshAccount, registerAndActivate } from '../../../test/helpers/auth.ts';
import { MailReceiver, type ReceivedMail } from '../../../test/mail-receiver.ts';
import { auditLog } from '../audit/index.ts';
import { mailOutbox } from '../mail/index.ts';
import { users } from '../users/index.ts';
import { MAILBOX_CAP_SKIPPED, mailboxOf, OUTSTANDING_LINKS_PER_MAILBOX } from './auth-limits.ts';

/**
 * Issue 43, item 9: strangers' requests mail the owner, and the per-account hour limits let 40
 * addresses send 40 activation mails to one mailbox (200 with both kinds and the per-address
 * limits used up). Now a mailbox (lower case, without its `+tag`) holds at most a few unexpired,
 * unused activation and reset links: at the cap the mail is skipped, the answer the same, and the
 * links already sent keep working. Behind one trusted proxy (TRUST_PROXY=1), each request names
 * its client in X-Forwarded-For; every mail is counted where it lands, in the SMTP receiver.
 */
let server: TestServer;
let call: ReturnType<typeof apiClient>;
const logLines: string[] = [];
const CAP = OUTSTANDING_LINKS_PER_MAILBOX;
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0';
const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

beforeAll(async () => {
  server = await startTestServer({
    env: { TRUST_PROXY: '1', LOG_LEVEL: 'info' },
    onLogLine: (line) => logLines.push(line),
  });
  call = apiClient(server);
});
afterAll(() => server.close());

let block = 0;
/** `count` addresses nobody used yet in this file (each request from its own). */
function strangers(total: number): string[] {
  block += 1;
  return Array.from({ length: total }, (_, index) => `10.${block}.${index >> 8}.${index & 255}`);
}

const post = (route: string, body: object, address: string) =>
  call('POST', route, body, undefined, { 'x-forwarded-for': address });

/** Every mail the SMTP receiver got for a mailbox, once the outbox has nothing left to send. */
async function delivered(mailbox: string, subject?: string): Promise<ReceivedMail[]> {
  await vi.waitFor(
    async () => {
      const [row] = await server.ctx.db
        .select({ waiting: count() })
        .from(mailOutbox)
        .where(and(isNull(mailOutbox.sentAt), isNull(mailOutbox.failedAt)));
      expect(row?.waiting).toBe(0);
    },
    { timeout: 20_000 },
  );
  return server.mail.messages.filter(
    (mail) => mailboxOf(mail.to) === mailboxOf(mailbox) && (!subject || mail.subject.startsWith(subject)),
  );
}

/**
 * Waits until `requests` forgot-password requests for these accounts have been decided (each
 * mails its link after its answer): a link issued is audited, a link skipped at the cap logged.
 */
async function resetsDecided(userIds: string[], requests: number): Promise<void> {
  await vi.waitFor(
    async () => {
      const [row] = await server.ctx.db
        .select({ issued: count() })
        .from(auditLog)
        .where(
          and(eq(auditLog.action, 'auth.password_reset_requested'), inArray(auditLog.targetId, userIds)),
        );
      const skipped = logLines.filter(
        (line) =>
          line.includes(MAILBOX_CAP_SKIPPED) &&
          line.includes('"kind":"reset"') &&
          userIds.some((id) => line.includes(id)),
      ).length;
      expect((row?.issued ?? 0) + skipped).toBe(requests);
    },
    { timeout: 20_000 },
  );
}

async function userIdOf(username: string): Promise<string> {
  const [row] = await server.ctx.db.select({ id: users.id }).from(users).where(eq(users.username, username));
  if (!row) throw new Error(`no user ${username}`);
  return row.id;
}

describe('one mailbox holds at most a few links (issue 43)', () => {
  it('40 resend requests from 40 addresses mail at most the cap, and the first link still activates', async () => {
    const input = freshAccount();
    expect((await call('POST', '/auth/register', input)).status).toBe(201);
    for (const address of strangers(40)) {
      const answer = await post('/auth/resend-confirmation', { username: input.username }, address);
      expect(answer).toMatchObject({ status: 200, body: { success: true } });
    }
    const mails = await delivered(input.email, 'Activez');
    expect(mails).toHaveLength(CAP);
    const link = MailReceiver.linkOf(mails[0] as ReceivedMail);
    const activated = await call('POST', '/auth/activate', {
      username: link.searchParams.get('username'),
      token: link.searchParams.get('token'),
    });
    expect(activated.body).toEqual({ success: true });
  });

  it('40 forgot-password requests from 40 addresses mail at most the cap, and the first link still resets', async () => {
    const account = await registerAndActivate(server);
    for (const address of strangers(40)) {
      expect((await post('/auth/forgot-password', { email: account.email }, address)).status).toBe(200);
    }
    await resetsDecided([account.id], 40);
    const mails = await delivered(account.email, 'Réinitialisation');
    expect(mails).toHaveLength(CAP);
    const token = MailReceiver.linkOf(mails[0] as ReceivedMail).searchParams.get('token');
    const reset = await call('POST', '/auth/reset-password', {
      token,
      password: 'Nouvelle-Lune-Sur-Le-Lac-7',
    });
    expect(reset.body).toEqual({ success: true });
  });

  it('both kinds count together: 20 resend and 20 forgot requests mail at most the cap', async () => {
    const input = freshAccount();
    expect((await call('POST', '/auth/register', input)).status).toBe(201);
    const id = await userIdOf(input.username);
    const addresses = strangers(40);
    for (const [index, address] of addresses.entries()) {
      const answer =
        index % 2 === 0
          ? await post('/auth/resend-confirmation', { username: input.username }, address)
          : await post('/auth/forgot-password', { email: input.email }, address);
      expect(answer).toMatchObject({ status: 200, body: { success: true } });
    }
    await resetsDecided([id], 20);
    expect(await delivered(input.email)).toHaveLength(CAP);
  });

  it('a +tag or upper-case variant is the same mailbox: registrations count too', async () => {
    const base = `dora${Date.now().toString(36)}`;
    const emails = [
      `${base}+1@example.test`,
      `${base.toUpperCase()}@EXAMPLE.TEST`,
      `${base}+promo@Example.Test`,
      `${base}+2@example.test`,
      `${base}+3@example.test`,
    ];
    const usernames = emails.map((_, index) => `${base}_${index}`);
    const addresses = strangers(emails.length * 2);
    for (const [index, email] of emails.entries()) {
      const answer = await post(
        '/auth/register',
        { ...freshAccount(), username: usernames[index], email },
        addresses[index] as string,
      );
      expect(answer.status).toBe(201);
    }
    for (const [index, username] of usernames.entries()) {
      const address = addresses[emails.length + index] as string;
      expect((await post('/auth/resend-confirmation', { username }, address)).status).toBe(200);
    }
    expect(await delivered(`${base}@example.test`, 'Activez')).toHaveLength(CAP);
  });

  it('links of other accounts filling the mailbox never stop the owner’s own reset link', async () => {
    const owner = await registerAndActivate(server);
    const [local, domain] = owner.email.split('@') as [string, string];
    const addresses = strangers(CAP + 3);
    // A stranger registers accounts at +tag variants of the owner's address: their activation
    // links fill the mailbox, and the owner cannot use them for their own account.
    for (let index = 0; index < CAP; index++) {
      const email = `${local}+${index}@${domain}`;
      expect(
        (await post('/auth/register', { ...freshAccount(), email }, addresses[index] as string)).status,
      ).toBe(201);
    }
    expect(await delivered(owner.email, 'Activez')).toHaveLength(1 + CAP);
    for (const address of addresses.slice(CAP)) {
      expect((await post('/auth/forgot-password', { email: owner.email }, address)).status).toBe(200);
    }
    await resetsDecided([owner.id], 3);
    // One reset link for the owner's account, then the cap holds again.
    expect(await delivered(owner.email, 'Réinitialisation')).toHaveLength(1);
  });

  it('an activation ends the account’s other activation links: they no longer hold the mailbox', async () => {
    const input = freshAccount();
    expect((await call('POST', '/auth/register', input)).status).toBe(201);
    for (const address of strangers(CAP - 1)) {
      expect((await post('/auth/resend-confirmation', { username: input.username }, address)).status).toBe(
        200,
      );
    }
    const links = (await delivered(input.email, 'Activez')).map((mail) => MailReceiver.linkOf(mail));
    expect(links).toHaveLength(CAP);
    const activate = (link: URL) =>
      call('POST', '/auth/activate', {
        username: link.searchParams.get('username'),
        token: link.searchParams.get('token'),
      });
    expect((await activate(links[CAP - 1] as URL)).body).toEqual({ success: true });
    const id = await userIdOf(input.username);
    for (const address of strangers(CAP)) {
      expect((await post('/auth/forgot-password', { email: input.email }, address)).status).toBe(200);
    }
    await resetsDecided([id], CAP);
    expect(await delivered(input.email, 'Réinitialisation')).toHaveLength(CAP);
  });

  it('a password reset ends the account’s activation links too (the reset activated it)', async () => {
    const input = freshAccount();
    expect((await call('POST', '/auth/register', input)).status).toBe(201);
    const id = await userIdOf(input.username);
    expect(
      (await post('/auth/forgot-password', { email: input.email }, strangers(1)[0] as string)).status,
    ).toBe(200);
    await resetsDecided([id], 1);
    const [mail] = await delivered(input.email, 'Réinitialisation');
    const token = MailReceiver.linkOf(mail as ReceivedMail).searchParams.get('token');
    const reset = await call('POST', '/auth/reset-password', {
      token,
      password: 'Nouvelle-Lune-Sur-Le-Lac-7',
    });
    expect(reset.body).toEqual({ success: true });
    for (const address of strangers(CAP)) {
      expect((await post('/auth/forgot-password', { email: input.email }, address)).status).toBe(200);
    }
    await resetsDecided([id], 1 + CAP);
    expect(await delivered(input.email, 'Réinitialisation')).toHaveLength(1 + CAP);
  });

  it('40 registrations with an owner’s e-mail from 40 addresses tell the owner once, not 40 times', async () => {
    const owner = await registerAndActivate(server);
    for (const address of strangers(40)) {
      const answer = await post('/auth/register', { ...freshAccount(), email: owner.email }, address);
      expect(answer.status).toBe(201);
    }
    expect(await delivered(owner.email, 'Tentative d’inscription')).toHaveLength(1);
  });

  it('a security notice is mailed whatever the cap, and counts for nothing', async () => {
    const owner = await registerAndActivate(server);
    for (const address of strangers(CAP)) {
      expect((await post('/auth/forgot-password', { email: owner.email }, address)).status).toBe(200);
    }
    await resetsDecided([owner.id], CAP);
    const signIn = (userAgent: string) =>
      call('POST', '/auth/login', { username: owner.username, password: owner.password }, undefined, {
        'user-agent': userAgent,
        'x-forwarded-for': '10.250.0.1',
      });
    expect((await signIn(FIREFOX_LINUX)).status).toBe(200);
    const notices = (await delivered(owner.email)).length;
    expect((await signIn(CHROME_WINDOWS)).status).toBe(200);
    const mails = await delivered(owner.email);
    expect(mails).toHaveLength(notices + 1);
    expect(mails.at(-1)?.subject).toBe('Nouvelle connexion à votre compte');
  });
});

describe('mailboxOf', () => {
  it('lower-cases, drops a +tag, and for Gmail drops the dots it ignores itself', () => {
    expect(mailboxOf(' Alice+Promo@Example.TEST ')).toBe('alice@example.test');
    expect(mailboxOf('alice+a+b@example.test')).toBe('alice@example.test');
    expect(mailboxOf('a.l.ice@example.test')).toBe('a.l.ice@example.test');
    expect(mailboxOf('A.L.ice+x@GMail.com')).toBe('alice@gmail.com');
    expect(mailboxOf('a.lice@googlemail.com')).toBe('alice@gmail.com');
  });
});
