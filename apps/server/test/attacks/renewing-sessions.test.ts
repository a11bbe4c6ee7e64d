import type { LeaseClaims, LeaseRenewal } from '@bot/contracts';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.ts';
import { grantPermission } from '../../src/modules/access/index.ts';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../harness.ts';
import {
  collect,
  connectAndAuthenticate,
  createBotOwner,
  newHwid,
  type TestSocket,
  waitFor,
  whitelist,
} from '../helpers/realtime.ts';

/**
 * Attack 1: sessions that renew forever (decision 923: a renewal extends the bot session). A
 * malicious agent keeps renewing its lease after what should end its session: a ban, a rotated key,
 * an unbind (by the customer or staff), both bot permissions withdrawn, the PC bound by its next
 * owner. And a pushed `lease_renewed` reaches only the agent it concerns, with its own whitelist.
 */
let server: TestServer;
let call: ReturnType<typeof apiClient>;
let staff: TestUser;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  server = await startTestServer({ rateLimits: { botSession: { max: 10_000, windowMs: 60_000 } } });
  call = apiClient(server);
  staff = await server.createUser({ isAdministrator: true });
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server?.close();
});

type Owner = Awaited<ReturnType<typeof createBotOwner>>;

async function agentOf(owner: { botToken: string; hwid: string }) {
  const { socket, ack } = await connectAndAuthenticate(server, {
    type: 'bot',
    token: owner.botToken,
    hwid: owner.hwid,
  });
  sockets.push(socket);
  expect(ack).toEqual({ ok: true });
  return socket;
}

const renew = (owner: { botToken: string; hwid: string }) =>
  call<{ lease?: string; expiresAt?: string; code?: string }>('POST', '/bot/lease', {
    token: owner.botToken,
    hwid: owner.hwid,
  });

async function removeGrants(owner: Owner, keep = 0): Promise<void> {
  const detail = await call<{ data: { grants: { id: string }[] } }>(
    'GET',
    `/admin/users/${owner.user.id}`,
    undefined,
    staff.token,
  );
  expect(detail.body.data.grants.length).toBeGreaterThan(keep);
  for (const grant of detail.body.data.grants.slice(keep)) {
    const removed = await call(
      'DELETE',
      `/admin/users/${owner.user.id}/grants/${grant.id}`,
      undefined,
      staff.token,
    );
    expect(removed.status).toBe(204);
  }
}

/** Before the last one goes, the first bot permission is withdrawn: a fresh lease with the other (legitimate). */
async function loseOnePermission(owner: Owner, socket: TestSocket): Promise<void> {
  const pushed = waitFor<LeaseRenewal>(socket, 'lease_renewed');
  await removeGrants(owner, 1);
  const claims = decodeJwt((await pushed).lease) as unknown as LeaseClaims;
  expect(claims.entitlements).toHaveLength(1);
}

const endings: [string, string, (owner: Owner) => Promise<unknown>][] = [
  [
    'its owner is banned',
    'BOT_SESSION_INVALID',
    async (owner) =>
      expect(
        (await call('POST', `/admin/users/${owner.user.id}/ban`, { reason: 'Triche' }, staff.token)).status,
      ).toBeLessThan(300),
  ],
  [
    'the access key is rotated',
    'BOT_SESSION_INVALID',
    async (owner) => expect((await call('POST', '/me/bot-key', undefined, owner.token)).status).toBe(200),
  ],
  [
    'the customer unbinds the PC',
    'BOT_SESSION_INVALID',
    async (owner) => expect((await call('DELETE', '/me/hwid', undefined, owner.token)).status).toBe(200),
  ],
  [
    'staff unbind the PC',
    'BOT_SESSION_INVALID',
    async (owner) =>
      expect(
        (await call('DELETE', `/admin/users/${owner.user.id}/hwid`, undefined, staff.token)).status,
      ).toBeLessThan(300),
  ],
  ['both bot permissions are withdrawn', 'BOT_PERMISSION_REQUIRED', (owner) => removeGrants(owner)],
];

describe('a bot session kept alive by renewals', () => {
  for (const [what, code, end] of endings) {
    it(`renews no lease once ${what}, and its socket is closed (no lease_renewed reaches it)`, async () => {
      const owner = await createBotOwner(server);
      const socket = await agentOf(owner);
      if (code === 'BOT_PERMISSION_REQUIRED') await loseOnePermission(owner, socket);
      const pushed = collect<LeaseRenewal>(socket, 'lease_renewed');
      // Renewed once while legitimate: the session is extended (decision 923).
      const first = await renew(owner);
      expect(first.status).toBe(200);
      expect(typeof first.body.lease).toBe('string');

      const closed = waitFor<{ code: string }>(socket, 'auth_error');
      await end(owner);
      await closed;
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const again = await renew(owner);
        expect(again.status, JSON.stringify(again.body)).toBeGreaterThanOrEqual(401);
        expect(again.body.code).toBe(code);
        expect(again.body.lease).toBeUndefined();
      }
      // Closed, and no fresh lease was pushed to it on the way (the change itself pushes none).
      expect(socket.connected).toBe(false);
      expect(pushed).toEqual([]);
    });
  }

  it('an unban does not revive the sessions the ban ended', async () => {
    const owner = await createBotOwner(server);
    const socket = await agentOf(owner);
    const closed = waitFor(socket, 'auth_error');
    await call('POST', `/admin/users/${owner.user.id}/ban`, { reason: 'Triche' }, staff.token);
    await closed;
    expect((await call('POST', `/admin/users/${owner.user.id}/unban`, {}, staff.token)).status).toBeLessThan(
      300,
    );
    const renewed = await renew(owner);
    expect(renewed.status).toBe(401);
    expect(renewed.body.code).toBe('BOT_SESSION_INVALID');
    const again = await connectAndAuthenticate(server, {
      type: 'bot',
      token: owner.botToken,
      hwid: owner.hwid,
    });
    sockets.push(again.socket);
    expect(again.ack).toMatchObject({ ok: false, code: 'BOT_SESSION_INVALID' });
  });

  it('the next owner of the PC binding it does not revive the previous owner’s session', async () => {
    const previous = await createBotOwner(server);
    await agentOf(previous);
    expect((await renew(previous)).status).toBe(200);
    expect((await call('DELETE', '/me/hwid', undefined, previous.token)).status).toBe(200);
    const next = await server.createUser({ permissions: ['can_useGathering'] });
    await whitelist(server, next.user.id, [`next-${newId().slice(-6)}`]);
    const key = await call<{ data: { accessKey: string } }>('GET', '/me/bot-key', undefined, next.token);
    const bound = await call<{ token: string; hwid: string }>('POST', '/bot/sessions', {
      accessKey: key.body.data.accessKey,
      hwid: previous.hwid,
      version: '1.0.0',
    });
    expect(bound.status).toBe(201);
    expect(bound.body.hwid).toBe(previous.hwid);
    const renewed = await renew(previous);
    expect(renewed.status).toBe(401);
    expect(renewed.body.code).toBe('BOT_SESSION_INVALID');
    // Nor does the previous owner's token open the socket of the PC now bound to the next owner.
    const { socket, ack } = await connectAndAuthenticate(server, {
      type: 'bot',
      token: previous.botToken,
      hwid: previous.hwid,
    });
    sockets.push(socket);
    expect(ack).toMatchObject({ ok: false, code: 'BOT_SESSION_INVALID' });
  });
});

describe('a pushed lease_renewed', () => {
  async function dropFromWhitelist(owner: Owner, name: string): Promise<void> {
    const listed = await call<{ data: { id: string; name: string }[] }>(
      'GET',
      '/me/whitelist',
      undefined,
      owner.token,
    );
    const entry = listed.body.data.find((kept) => kept.name === name);
    expect((await call('DELETE', `/me/whitelist/${entry?.id}`, undefined, owner.token)).status).toBe(204);
  }

  it('reaches only the agent of the owner whose whitelist changed, carrying that owner’s whitelist', async () => {
    const tag = newId().slice(-6);
    const owner = await createBotOwner(server, { accounts: [`own-${tag}`, `own2-${tag}`] });
    const other = await createBotOwner(server, { accounts: [`other-${tag}`, `other2-${tag}`] });
    const ownSocket = await agentOf(owner);
    const otherSocket = await agentOf(other);
    const toOther = collect<LeaseRenewal>(otherSocket, 'lease_renewed');
    const toOwner = waitFor<LeaseRenewal>(ownSocket, 'lease_renewed');

    await dropFromWhitelist(owner, `own2-${tag}`);
    const renewal = await toOwner;
    expect(renewal.whitelist).toEqual([`own-${tag}`]);
    const claims = decodeJwt(renewal.lease) as unknown as LeaseClaims;
    expect(claims.sub).toBe(owner.user.id);
    expect(claims.accounts).toEqual([`own-${tag}`]);
    // The other owner's agent gets a lease only after its own owner's change: the first one it gets.
    const toOtherNow = waitFor<LeaseRenewal>(otherSocket, 'lease_renewed');
    await dropFromWhitelist(other, `other2-${tag}`);
    const own = await toOtherNow;
    expect(toOther).toHaveLength(1);
    expect(own.whitelist).toEqual([`other-${tag}`]);
    expect((decodeJwt(own.lease) as unknown as LeaseClaims).sub).toBe(other.user.id);
  });
});

describe('a renewal and the entitlement’s end', () => {
  it('a renewal near the end of the only entitlement gives a lease that stops at that end', async () => {
    const owner = await server.createUser({ permissions: [] });
    const end = new Date(Date.now() + 90 * 60_000);
    await grantPermission(server.app.ctx, {
      id: newId(),
      userId: owner.user.id,
      permission: 'can_useTreasure',
      expiresAt: end,
      source: 'manual',
    });
    const key = await call<{ data: { accessKey: string } }>('GET', '/me/bot-key', undefined, owner.token);
    const hwid = newHwid();
    const opened = await call<{ token: string; lease: string }>('POST', '/bot/sessions', {
      accessKey: key.body.data.accessKey,
      hwid,
      version: '1.0.0',
    });
    expect(opened.status).toBe(201);
    const endSeconds = Math.floor(end.getTime() / 1000);
    for (const lease of [
      opened.body.lease,
      (await renew({ botToken: opened.body.token, hwid })).body.lease,
    ]) {
      const claims = decodeJwt(String(lease)) as unknown as LeaseClaims;
      expect(claims.exp + claims.grace).toBeLessThanOrEqual(endSeconds);
      expect(claims.entitlementEnds?.can_useTreasure).toBe(end.toISOString());
    }
  });
});
