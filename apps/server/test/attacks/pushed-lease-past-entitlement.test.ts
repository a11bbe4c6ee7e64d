import type { LeaseClaims, LeaseRenewal } from '@bot/contracts';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { newId } from '../../src/core/ids.ts';
import { grantPermission } from '../../src/modules/access/index.ts';
import { apiClient, startTestServer, type TestServer } from '../harness.ts';
import { connectAndAuthenticate, newHwid, type TestSocket, waitFor, whitelist } from '../helpers/realtime.ts';

/**
 * Attack 1 (sessions that renew forever): a customer whose only bot entitlement ends keeps its
 * agent connected (the expiry sweep has not reached it yet) and changes its own whitelist, which
 * makes the server push `lease_renewed` (decision 923). The pushed lease must not run past the
 * entitlement's end: a lease never outlives what it entitles (docs/licensing.md). Nor may a
 * session opened just after that end (permissions read a few seconds earlier are cached).
 */
let server: TestServer;
let call: ReturnType<typeof apiClient>;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  // The sweep that would close the agent (BOT_PERMISSION_REQUIRED) runs late: a realistic window.
  server = await startTestServer({ realtime: { expirySweepMs: 600_000 } });
  call = apiClient(server);
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server?.close();
});

it('a whitelist change after the only entitlement ended pushes no lease that runs past that end', {
  timeout: 30_000,
}, async () => {
  const owner = await server.createUser({ permissions: [] });
  const end = new Date(Date.now() + 2_500);
  await grantPermission(server.app.ctx, {
    id: newId(),
    userId: owner.user.id,
    permission: 'can_useGathering',
    expiresAt: end,
    source: 'manual',
  });
  await whitelist(server, owner.user.id, ['Fin-Un', 'Fin-Deux']);
  const key = await call<{ data: { accessKey: string } }>('GET', '/me/bot-key', undefined, owner.token);
  const hwid = newHwid();
  const session = await call<{ token: string }>('POST', '/bot/sessions', {
    accessKey: key.body.data.accessKey,
    hwid,
    version: '1.0.0',
  });
  expect(session.status).toBe(201);
  const { socket, ack } = await connectAndAuthenticate(server, {
    type: 'bot',
    token: session.body.token,
    hwid,
  });
  sockets.push(socket);
  expect(ack).toEqual({ ok: true });

  await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(end.getTime()), {
    timeout: 10_000,
    interval: 25,
  });
  // The agent's own renewal is refused now (checked in a transaction): held.
  const renewal = await call<{ code: string }>('POST', '/bot/lease', { token: session.body.token, hwid });
  expect(renewal.status).toBe(403);
  expect(renewal.body.code).toBe('BOT_PERMISSION_REQUIRED');

  const pushed = waitFor<LeaseRenewal>(socket, 'lease_renewed', () => true, 3_000).catch(() => undefined);
  const listed = await call<{ data: { id: string; name: string }[] }>(
    'GET',
    '/me/whitelist',
    undefined,
    owner.token,
  );
  const entry = listed.body.data.find((kept) => kept.name === 'Fin-Deux');
  expect((await call('DELETE', `/me/whitelist/${entry?.id}`, undefined, owner.token)).status).toBe(204);
  const renewed = await pushed;
  if (!renewed) return; // nothing pushed: safe
  const claims = decodeJwt(renewed.lease) as unknown as LeaseClaims;
  const endSeconds = Math.floor(end.getTime() / 1000);
  const shown = JSON.stringify({ ...claims, accounts: undefined, packages: undefined, end: endSeconds });
  expect(claims.exp + claims.grace, `exp + grace of the pushed lease ${shown}`).toBeLessThanOrEqual(
    endSeconds,
  );
});

it('a session opened just after the only entitlement ended is refused, or its lease stops at that end', {
  timeout: 30_000,
}, async () => {
  const owner = await server.createUser({ permissions: [] });
  const end = new Date(Date.now() + 2_000);
  await grantPermission(server.app.ctx, {
    id: newId(),
    userId: owner.user.id,
    permission: 'can_useGathering',
    expiresAt: end,
    source: 'manual',
  });
  const key = await call<{ data: { accessKey: string } }>('GET', '/me/bot-key', undefined, owner.token);
  const hwid = newHwid();
  const open = () =>
    call<{ token?: string; lease?: string; code?: string }>('POST', '/bot/sessions', {
      accessKey: key.body.data.accessKey,
      hwid,
      version: '1.0.0',
    });
  // A session while entitled (its permissions are read, as any request reads them).
  expect((await open()).status).toBe(201);
  await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(end.getTime()), {
    timeout: 10_000,
    interval: 25,
  });
  const after = await open();
  if (after.status !== 201) {
    expect(after.body.code).toBe('BOT_PERMISSION_REQUIRED');
    return;
  }
  const claims = decodeJwt(String(after.body.lease)) as unknown as LeaseClaims;
  const endSeconds = Math.floor(end.getTime() / 1000);
  const shown = JSON.stringify({ ...claims, accounts: undefined, packages: undefined, end: endSeconds });
  expect(claims.exp + claims.grace, `a session opened after the end, its lease ${shown}`).toBeLessThanOrEqual(
    endSeconds,
  );
});
