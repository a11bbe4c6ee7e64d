import { and, count, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../../test/harness.ts';
import { freshAccount } from '../../test/helpers/auth.ts';
import { mailOutbox } from '../modules/mail/index.ts';
import { rateLimitAddress } from './client-address.ts';

/**
 * Issue 43: an IPv6 client picks any of the 2^64 addresses of its /64 (its provider hands out the
 * prefix, privacy extensions draw a new one every day), so counting each address alone gave one
 * machine a fresh quota per request. Every per-address limit now counts the /64. The server sits
 * behind one trusted proxy (TRUST_PROXY=1): each request names its client in X-Forwarded-For.
 */
let server: TestServer;
let call: ReturnType<typeof apiClient>;

beforeAll(async () => {
  server = await startTestServer({
    env: { TRUST_PROXY: '1' },
    rateLimits: {
      activate: { max: 2, windowMs: 60_000 },
      loginPerAccountAndIp: { max: 2, windowMs: 60_000 },
      resend: { max: 2, windowMs: 60_000 },
    },
  });
  call = apiClient(server);
});
afterAll(() => server.close());

const from = (address: string) => ({ 'x-forwarded-for': address });

describe('per-address limits count an IPv6 client by its /64 (issue 43)', () => {
  it('a route limited per address: two addresses of one /64 share it, another /64 has its own', async () => {
    const wrongActivation = (address: string) =>
      call('POST', '/auth/activate', { username: 'personne', token: 'faux' }, undefined, from(address));
    expect((await wrongActivation('2001:db8:7:1::a')).status).toBe(400);
    expect((await wrongActivation('2001:db8:7:1:ffff:ffff:ffff:fffe')).status).toBe(400);
    // The same /64, written in full and in capitals: the third attempt of the prefix.
    const third = await wrongActivation('2001:0DB8:0007:0001:0000:0000:0000:00b0');
    expect(third).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
    expect((await wrongActivation('2001:db8:7:2::a')).status).toBe(400);
    // IPv4 addresses stay counted one by one.
    expect((await wrongActivation('192.0.2.70')).status).toBe(400);
    expect((await wrongActivation('192.0.2.71')).status).toBe(400);
    expect((await wrongActivation('192.0.2.71')).status).toBe(400);
  });

  it('wrong passwords of one account from one /64 lock that /64 out, not the owner’s', async () => {
    const owner = await server.createUser();
    const login = (password: string, address: string) =>
      call('POST', '/auth/login', { username: owner.user.username, password }, undefined, from(address));
    expect((await login('mauvais-1', '2001:db8:8:1::1')).status).toBe(401);
    expect((await login('mauvais-2', '2001:db8:8:1::2')).status).toBe(401);
    expect(await login('mauvais-3', '2001:db8:8:1::3')).toMatchObject({ status: 429 });
    expect((await login(owner.password, '2001:db8:8:2::1')).status).toBe(200);
  });

  it('mail requests: the per-address limit counts the /64 too (the mail skipped, the answer the same)', async () => {
    const accounts = [];
    for (let index = 0; index < 3; index++) {
      const input = freshAccount();
      expect((await call('POST', '/auth/register', input)).status).toBe(201);
      accounts.push(input);
    }
    const resend = (username: string, address: string) =>
      call('POST', '/auth/resend-confirmation', { username }, undefined, from(address));
    const [first, second, third] = accounts as [
      (typeof accounts)[0],
      (typeof accounts)[0],
      (typeof accounts)[0],
    ];
    for (const [account, address] of [
      [first, '2001:db8:9:1::1'],
      [second, '2001:db8:9:1::2'],
      [third, '2001:db8:9:1::3'],
    ] as const) {
      expect(await resend(account.username, address)).toMatchObject({ status: 200, body: { success: true } });
    }
    // Registration's mail and one resent each, but the /64's third request was over its limit.
    expect(await activationMails(first.email)).toBe(2);
    expect(await activationMails(second.email)).toBe(2);
    expect(await activationMails(third.email)).toBe(1);
    expect((await resend(third.username, '2001:db8:9:2::3')).status).toBe(200);
    expect(await activationMails(third.email)).toBe(2);
  });
});

/** Activation mails queued for an address (resend-confirmation queues its mail before answering). */
async function activationMails(address: string): Promise<number> {
  const [row] = await server.ctx.db
    .select({ total: count() })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to, address), like(mailOutbox.subject, 'Activez%')));
  return row?.total ?? 0;
}

describe('rateLimitAddress', () => {
  it('keeps an IPv4 address, folds an IPv6 one to its /64 and an IPv4-mapped one to its IPv4', () => {
    expect(rateLimitAddress('203.0.113.9')).toBe('203.0.113.9');
    expect(rateLimitAddress('2001:db8:a:b:c:d:e:f')).toBe('2001:db8:a:b::/64');
    expect(rateLimitAddress('2001:DB8:A:B::1')).toBe('2001:db8:a:b::/64');
    expect(rateLimitAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(rateLimitAddress('::1')).toBe('0:0:0:0::/64');
    expect(rateLimitAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(rateLimitAddress('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(rateLimitAddress('::ffff:c000:201')).toBe('192.0.2.1');
    expect(rateLimitAddress('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    expect(rateLimitAddress(null)).toBe('unknown');
    expect(rateLimitAddress('pas une adresse')).toBe('pas une adresse');
  });
});
