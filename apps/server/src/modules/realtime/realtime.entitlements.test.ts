import type { BotState } from '@bot/contracts';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type TestServer, type TestUser } from '../../../test/harness.ts';
import {
  account,
  connectAndAuthenticate,
  createBotOwner,
  realtimeSuite,
  waitFor,
} from '../../../test/helpers/realtime.ts';
import { userGrants } from '../access/index.ts';

/**
 * Every right a running bot holds is enforced on its live socket, not only when its session opens:
 * each change below closes the connected agent with the reason (`auth_error`), then disconnects it.
 * Served by one node here; the cluster suite proves the minimum version across nodes.
 */
let server: TestServer;
let call: ReturnType<typeof apiClient>;
let staff: TestUser;
const { track, connectBot } = realtimeSuite((started) => {
  server = started;
});

beforeAll(async () => {
  call = apiClient(server);
  staff = await server.createUser({ isAdministrator: true });
});

type Owner = Awaited<ReturnType<typeof createBotOwner>>;

/** A customer whose bot permission comes from a package they paid for, not from staff. */
async function createPackageOwner(): Promise<Owner & { orderId: string }> {
  const owner = await createBotOwner(server);
  const pkg = await call<{ data: { id: string } }>(
    'POST',
    '/admin/packages',
    {
      name: `Offre ${owner.hwid.slice(-6)}`,
      priceCents: 500,
      durationDays: 30,
      grants: ['can_useGathering'],
      whitelistSlots: 1,
    },
    staff.token,
  );
  const order = await call<{ data: { id: string } }>(
    'POST',
    '/me/orders',
    { packageId: pkg.body.data.id },
    owner.token,
  );
  await call('POST', `/payments/sandbox/${order.body.data.id}/succeed`, undefined, owner.token);
  // Only the package's grant is left.
  await server.ctx.db.delete(userGrants).where(eq(userGrants.source, 'manual'));
  return { ...owner, orderId: order.body.data.id };
}

async function removeEveryGrant(owner: Owner): Promise<void> {
  const detail = await call<{ data: { grants: { id: string }[] } }>(
    'GET',
    `/admin/users/${owner.user.id}`,
    undefined,
    staff.token,
  );
  for (const grant of detail.body.data.grants) {
    const removed = await call(
      'DELETE',
      `/admin/users/${owner.user.id}/grants/${grant.id}`,
      undefined,
      staff.token,
    );
    expect(removed.status).toBe(204);
  }
}

const changes: [
  string,
  string,
  () => Promise<Owner>,
  (owner: Owner & { orderId?: string }) => Promise<unknown>,
][] = [
  [
    'staff ban the owner',
    'ACCOUNT_BANNED',
    () => createBotOwner(server),
    (owner) => call('POST', `/admin/users/${owner.user.id}/ban`, { reason: 'Triche' }, staff.token),
  ],
  [
    'staff remove the bot permissions',
    'BOT_PERMISSION_REQUIRED',
    () => createBotOwner(server),
    removeEveryGrant,
  ],
  [
    'the package is refunded',
    'BOT_PERMISSION_REQUIRED',
    createPackageOwner,
    (owner) => call('POST', `/admin/payments/${owner.orderId}/refund`, {}, staff.token),
  ],
  [
    'the package period ends',
    'BOT_PERMISSION_REQUIRED',
    createPackageOwner,
    (owner) =>
      // Nobody announces an end: the expiry sweep finds it.
      server.ctx.db
        .update(userGrants)
        .set({ expiresAt: new Date(Date.now() + 500) })
        .where(eq(userGrants.userId, owner.user.id)),
  ],
  [
    'staff reset the PC',
    'BOT_SESSION_INVALID',
    () => createBotOwner(server),
    (owner) => call('DELETE', `/admin/users/${owner.user.id}/hwid`, undefined, staff.token),
  ],
  [
    'the owner rotates the access key',
    'BOT_SESSION_INVALID',
    () => createBotOwner(server),
    (owner) => call('POST', '/me/bot-key', undefined, owner.token),
  ],
  [
    'the minimum version rises above the agent’s',
    'BOT_VERSION_OUTDATED',
    () => createBotOwner(server),
    () => call('PUT', '/admin/settings', { minBotVersion: '1.5.0' }, staff.token),
  ],
];

describe('entitlements on live sockets', () => {
  it.each(changes)('%s: the connected agent is closed (%s)', async (_change, code, makeOwner, change) => {
    const owner = await makeOwner();
    const bot = await connectBot(owner);
    const refused = waitFor<{ code: string; error: string }>(bot.socket, 'auth_error', undefined, 10_000);
    const closed = waitFor(bot.socket, 'disconnect', undefined, 10_000);

    await change(owner);

    expect((await refused).code).toBe(code);
    await closed;
    if (code === 'BOT_VERSION_OUTDATED') {
      // The refusal says what to do, as the session refusal does.
      expect((await refused).error).toContain('1.5.0');
      expect((await refused).error).toContain(`${server.ctx.config.publicUrl}/started`);
      await call('PUT', '/admin/settings', { minBotVersion: '0.0.0' }, staff.token);
    }
  });

  it('a session opened before the minimum rose cannot connect a new socket', async () => {
    const owner = await createBotOwner(server);
    await call('PUT', '/admin/settings', { minBotVersion: '1.5.0' }, staff.token);
    try {
      const again = track(
        await connectAndAuthenticate(server, { type: 'bot', token: owner.botToken, hwid: owner.hwid }),
      );
      expect(again.ack).toMatchObject({ ok: false, code: 'BOT_VERSION_OUTDATED' });
    } finally {
      await call('PUT', '/admin/settings', { minBotVersion: '0.0.0' }, staff.token);
    }
  });

  it('the version shown is the one checked at the session, never the one a report claims', async () => {
    const owner = await createBotOwner(server);
    const bot = await connectBot(owner);
    const watcher = track(
      await connectAndAuthenticate(server, { type: 'client', token: owner.token, hwid: owner.hwid }),
    );
    bot.socket.emit('bot_update', {
      version: '0.0.1-hack',
      accounts: [account(owner.accounts[0] as string)],
    });
    const state = await waitFor<BotState>(watcher.socket, 'bot_update', (s) => s.accounts.length > 0);
    expect(state.version).toBe('1.0.0');
  });
});
