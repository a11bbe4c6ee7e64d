import type { BotTimeline, BotTimelineKind } from '@bot/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../../../test/harness.ts';
import {
  account,
  connectAndAuthenticate,
  connectOwnerBot,
  createBotOwner,
  statusReported,
  type TestSocket,
  waitForClose,
} from '../../../test/helpers/realtime.ts';
import { evaluateAlerts } from '../alerts/index.ts';

let server: TestServer;
let call: ReturnType<typeof apiClient>;
let staff: TestUser;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
  staff = await server.createUser({ permissions: ['can_manageUsers', 'can_managePackages'] });
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server.close();
});

async function timelineOf(token: string, path = '/me/bot/timeline'): Promise<BotTimeline> {
  const answer = await call<{ data: BotTimeline }>('GET', path, undefined, token);
  expect(answer.status).toBe(200);
  return answer.body.data;
}

const kinds = (timeline: BotTimeline): BotTimelineKind[] => timeline.entries.map((entry) => entry.kind);

/** Waits until the timeline holds what the real-time layer writes as it happens. */
function timelineWith(token: string, predicate: (timeline: BotTimeline) => boolean, path?: string) {
  return vi.waitFor(async () => {
    const timeline = await timelineOf(token, path);
    expect(predicate(timeline)).toBe(true);
    return timeline;
  });
}

describe('a bot timeline', () => {
  it('tells binding, connections, accounts into and out of error, payments and actions, newest first', async () => {
    const owner = await createBotOwner(server, { accounts: ['Rosa'] });
    const { socket } = await connectOwnerBot(server, owner);
    sockets.push(socket);
    const watcher = await connectAndAuthenticate(server, {
      type: 'client',
      token: owner.token,
      hwid: owner.hwid,
    });
    sockets.push(watcher.socket);
    const reported = (status: string) => statusReported(watcher.socket, status);
    let next = reported('gathering');
    socket.emit('bot_update', { accounts: [account('Rosa')] });
    await next;
    next = reported('error');
    socket.emit('bot_update', {
      accounts: [account('Rosa', { status: 'error', message: 'Inventaire plein' })],
    });
    await next;
    next = reported('fighting');
    socket.emit('bot_update', { accounts: [account('Rosa', { status: 'fighting' })] });
    await next;
    socket.disconnect();

    const timeline = await timelineWith(owner.token, (found) => kinds(found).includes('disconnected'));
    expect(timeline.hwid).toBe(owner.hwid);
    expect(kinds(timeline)).toEqual(['disconnected', 'recovered', 'error', 'connected', 'bound']);
    const byKind = (kind: BotTimelineKind) => timeline.entries.find((entry) => entry.kind === kind);
    expect(byKind('connected')?.version).toBe('1.0.0');
    expect(byKind('error')).toMatchObject({ account: 'Rosa', message: 'Inventaire plein' });
    expect(byKind('recovered')).toMatchObject({ account: 'Rosa', message: null });
    expect(byKind('disconnected')?.durationSeconds).toBeGreaterThanOrEqual(0);
    // The connection counted in the uptime, in the hour it happened.
    expect(timeline.uptime.length).toBeGreaterThan(0);
    expect(timeline.uptime.every((point) => point.value >= 0 && point.value <= 3600)).toBe(true);

    // Staff reset the PC: the owner sees it (an action), staff see the same PC's timeline.
    expect((await call('DELETE', `/admin/users/${owner.user.id}/hwid`, undefined, staff.token)).status).toBe(
      200,
    );
    const afterReset = await timelineOf(owner.token);
    expect(afterReset.hwid).toBe(owner.hwid); // the last PC, though unbound now
    // A customer is not told which staff member acted.
    expect(afterReset.entries[0]).toMatchObject({
      kind: 'action',
      action: 'user.hwid_reset',
      actor: 'l’équipe',
    });
    const seenByStaff = await timelineOf(staff.token, `/admin/bots/${owner.hwid}/timeline`);
    expect(seenByStaff.owner?.username).toBe(owner.user.username);
    expect(kinds(seenByStaff)).toEqual(kinds(afterReset));
  });

  it('shows the owner’s payments with the package period', async () => {
    const pkg = await call<{ data: { id: string } }>(
      'POST',
      '/admin/packages',
      {
        name: 'Récolte 30 jours',
        priceCents: 999,
        durationDays: 30,
        grants: ['can_useGathering'],
        whitelistSlots: 2,
      },
      staff.token,
    );
    const owner = await createBotOwner(server);
    const order = await call<{ data: { id: string } }>(
      'POST',
      '/me/orders',
      { packageId: pkg.body.data.id },
      owner.token,
    );
    await call('POST', `/payments/sandbox/${order.body.data.id}/succeed`, undefined, owner.token);
    const payment = (await timelineOf(owner.token)).entries.find((entry) => entry.kind === 'payment');
    expect(payment?.order).toMatchObject({ packageName: 'Récolte 30 jours', amountCents: 999 });
    expect(Date.parse(payment?.order?.endsAt ?? '') - Date.parse(payment?.order?.startsAt ?? '')).toBe(
      30 * 86_400_000,
    );
  });

  it('keeps a PC’s earlier owner out of the next owner’s timeline, and is staff-only for any PC', async () => {
    const first = await createBotOwner(server);
    expect((await call('DELETE', `/admin/users/${first.user.id}/hwid`, undefined, staff.token)).status).toBe(
      200,
    );
    const second = await server.createUser({ permissions: ['can_useGathering'] });
    const key = await call<{ data: { accessKey: string } }>('GET', '/me/bot-key', undefined, second.token);
    const opened = await call('POST', '/bot/sessions', {
      accessKey: key.body.data.accessKey,
      hwid: first.hwid,
      version: '1.2.0',
    });
    expect(opened.status).toBe(201);
    expect(kinds(await timelineOf(second.token))).toEqual(['bound']);
    const staffView = await timelineOf(staff.token, `/admin/bots/${first.hwid}/timeline`);
    expect(staffView.owner?.id).toBe(second.user.id);
    expect(kinds(staffView).filter((kind) => kind === 'bound')).toHaveLength(2);

    expect((await call('GET', `/admin/bots/${first.hwid}/timeline`, undefined, second.token)).status).toBe(
      403,
    );
    expect((await call('GET', '/me/bot/timeline')).status).toBe(401);
    const nobody = await server.createUser();
    expect(await timelineOf(nobody.token)).toMatchObject({ hwid: null, entries: [], uptime: [] });
  });

  it('shows the alerts sent about the PC and their end', async () => {
    const owner = await createBotOwner(server);
    const preferences = {
      botOffline: true,
      offlineMinutes: 5,
      accountError: false,
      packageExpiring: false,
      payments: false,
      channels: { inApp: true, email: false, discord: false },
      discordWebhookUrl: null,
    };
    expect((await call('PUT', '/me/alerts', preferences, owner.token)).status).toBe(200);
    const connect = async () => {
      const { socket } = await connectOwnerBot(server, owner);
      sockets.push(socket);
      return socket;
    };
    const first = await connect();
    const closed = waitForClose(first);
    first.disconnect();
    await closed;
    await timelineWith(owner.token, (found) => kinds(found).includes('disconnected'));
    const start = Date.now();
    await evaluateAlerts(server.ctx, new Date(start + 6 * 60_000));
    const alerted = await timelineOf(owner.token);
    expect(alerted.entries.find((entry) => entry.kind === 'alert')).toMatchObject({ action: 'bot_offline' });

    await connect();
    await timelineWith(
      owner.token,
      (found) => kinds(found).filter((kind) => kind === 'connected').length === 2,
    );
    await evaluateAlerts(server.ctx, new Date(start + 7 * 60_000));
    const cleared = await timelineOf(owner.token);
    expect(cleared.entries.find((entry) => entry.kind === 'alert_cleared')).toMatchObject({
      action: 'bot_offline',
    });
    // Staff see the same alerts on the PC's timeline.
    expect(kinds(await timelineOf(staff.token, `/admin/bots/${owner.hwid}/timeline`))).toContain('alert');
  });
});
