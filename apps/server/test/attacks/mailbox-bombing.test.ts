import { and, count, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_RATE_LIMITS } from '../../src/config.ts';
import { OUTSTANDING_LINKS_PER_MAILBOX } from '../../src/modules/auth/index.ts';
import { mailOutbox } from '../../src/modules/mail/index.ts';
import { apiClient, startTestServer, type TestServer } from '../harness.ts';
import { freshAccount } from '../helpers/auth.ts';

/**
 * Attack family 7: a stranger with many addresses (behind one trusted proxy, TRUST_PROXY=1, each
 * request names its client in X-Forwarded-For). Mailbox bombing through register / resend / forgot
 * with variants that land in one real mailbox, and per-address limits dodged by rotating addresses.
 */
let server: TestServer;
let call: ReturnType<typeof apiClient>;

beforeAll(async () => {
  server = await startTestServer({
    env: { TRUST_PROXY: '1' },
    rateLimits: { register: DEFAULT_RATE_LIMITS.register, forgot: DEFAULT_RATE_LIMITS.forgot },
  });
  call = apiClient(server);
});
afterAll(() => server?.close());

let block = 0;
let sentinelCount = 1;
function strangers(total: number): string[] {
  block += 1;
  return Array.from({ length: total }, (_, index) => `10.${block}.${index >> 8}.${index & 255}`);
}
const post = (route: string, body: object, address: string) =>
  call('POST', route, body, undefined, { 'x-forwarded-for': address });

/** Where a mail really lands: lower case, no +tag, no trailing dot, no quotes, Gmail without dots. */
function realMailbox(email: string): string {
  const address = email.trim().toLowerCase().replace(/\.$/, '');
  const at = address.lastIndexOf('@');
  let local = address
    .slice(0, at)
    .replace(/^"(.*)"$/, '$1')
    .split('+')[0] as string;
  let domain = address.slice(at + 1).replace(/\.$/, '');
  if (domain === 'gmail.com' || domain === 'googlemail.com') {
    local = local.replaceAll('.', '');
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}

async function deliveredTo(mailbox: string) {
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
  return server.mail.messages.filter((mail) => realMailbox(mail.to) === mailbox);
}

describe('one real mailbox, many spellings', () => {
  it('registrations and resends under dot, googlemail, trailing-dot, quoted and case variants mail at most the cap', async () => {
    const base = `vic${Date.now().toString(36)}`;
    const dotted = (index: number) =>
      `${base.slice(0, 1 + (index % (base.length - 1)))}.${base.slice(1 + (index % (base.length - 1)))}`;
    const emails = [
      `${dotted(0)}@gmail.com`,
      `${dotted(1)}@gmail.com`,
      `${base}@googlemail.com`,
      `${dotted(2)}+x@GoogleMail.com`,
      `${base}@gmail.com.`,
      `"${base}"@gmail.com`,
      `${dotted(3)}@GMAIL.COM`,
      `${dotted(4)}+y@gmail.com`,
    ];
    const addresses = strangers(emails.length * 3);
    const usernames: string[] = [];
    for (const [index, email] of emails.entries()) {
      const username = `${base}_${index}`;
      const answer = await post(
        '/auth/register',
        { ...freshAccount(), username, email },
        addresses[index] as string,
      );
      if (answer.status === 201) usernames.push(username);
    }
    for (const [index, username] of usernames.entries()) {
      await post('/auth/resend-confirmation', { username }, addresses[emails.length + index] as string);
      await post(
        '/auth/forgot-password',
        { email: emails[index] },
        addresses[2 * emails.length + index] as string,
      );
    }
    const mails = await deliveredTo(`${base}@gmail.com`);
    expect(usernames.length).toBeGreaterThan(3);
    expect(mails.length).toBeGreaterThan(0);
    expect(mails.length, mails.map((mail) => mail.to).join(', ')).toBeLessThanOrEqual(
      OUTSTANDING_LINKS_PER_MAILBOX,
    );
  });
});

describe('per-address limits against rotation', () => {
  it('20 registrations from one IPv6 /64 (a fresh address each) stop at the per-address limit', async () => {
    const statuses: number[] = [];
    for (let index = 1; index <= 20; index += 1) {
      const answer = await post('/auth/register', freshAccount(), `2001:db8:77:1::${index.toString(16)}`);
      statuses.push(answer.status);
    }
    expect(statuses.filter((status) => status === 201).length).toBeLessThanOrEqual(
      DEFAULT_RATE_LIMITS.register.max,
    );
    expect(statuses).toContain(429);
  });

  /** Forgot-password for `total` real accounts, each request from `from(index)`: the reset mails sent (the answer is 200 either way). */
  async function resetMailsSent(total: number, from: (index: number) => Record<string, string>) {
    const emails: string[] = [];
    for (let index = 0; index < total; index += 1) {
      const user = await server.createUser();
      emails.push(user.user.email);
      await call('POST', '/auth/forgot-password', { email: user.user.email }, undefined, from(index));
    }
    // Each link is issued and mailed after the answer: a last request from an unused address is
    // mailed after the others were decided; its mail landing, the outbox then settles.
    const sentinel = await server.createUser();
    await post('/auth/forgot-password', { email: sentinel.user.email }, `10.254.${block}.${sentinelCount++}`);
    await server.mail.waitFor({ to: sentinel.user.email, subject: '' }, 20_000);
    let sent = 0;
    for (const email of emails) sent += (await deliveredTo(realMailbox(email))).length;
    return sent;
  }

  it('the same /64 written differently (leading zeros, upper case, a zone) shares its quota', async () => {
    const spellings = [
      '2001:db8:78:1::1',
      '2001:0db8:0078:0001:0000:0000:0000:0002',
      '2001:DB8:78:1:ffff:ffff:ffff:ffff',
    ];
    const sent = await resetMailsSent(12, (index) => ({ 'x-forwarded-for': spellings[index % 3] as string }));
    expect(sent).toBeLessThanOrEqual(DEFAULT_RATE_LIMITS.forgot.max);
  });

  it('forged left-hand X-Forwarded-For entries do not give a fresh quota (the proxy’s own entry counts)', async () => {
    const sent = await resetMailsSent(12, (index) => ({
      'x-forwarded-for': `198.51.100.${index}, 10.250.0.1`,
    }));
    expect(sent).toBeLessThanOrEqual(DEFAULT_RATE_LIMITS.forgot.max);
  });

  it('IPv4 clients are not all one IPv6 /64: a mapped address full of requests does not block another IPv4', async () => {
    await resetMailsSent(8, () => ({ 'x-forwarded-for': '::ffff:10.251.0.1' }));
    expect(await resetMailsSent(1, () => ({ 'x-forwarded-for': '::ffff:10.252.0.9' }))).toBe(1);
    expect(await resetMailsSent(1, () => ({ 'x-forwarded-for': '10.253.0.1' }))).toBe(1);
  });
});
