import type { BotTimeline } from '@bot/contracts';
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

/**
 * A PC reset by staff does not erase the past: staff keep the history of every PC a user has had,
 * the customer keeps their own time with it, and a customer never reads a staff member's name.
 */
let server: TestServer;
let call: ReturnType<typeof apiClient>;
let staff: TestUser;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
  staff = await server.createUser({ username: `support_${Date.now()}`, permissions: ['can_manageUsers'] });
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server.close();
});

const get = async <T>(path: string, token: string) => {
  const answer = await call<{ data: T }>('GET', path, undefined, token);
  expect(answer.status).toBe(200);
  return answer.body.data;
};

describe('history after a PC reset', () => {
  it('staff choose among every PC the user had; the customer keeps theirs, reset included, told as "l’équipe"', async () => {
    const owner = await createBotOwner(server, { accounts: ['Rosa'] });
    const { socket } = await connectOwnerBot(server, owner);
    sockets.push(socket);
    const watcher = await connectAndAuthenticate(server, {
      type: 'client',
      token: owner.token,
      hwid: owner.hwid,
    });
    sockets.push(watcher.socket);
    // Stats are counted from the first report on: 0 then 5 is 5 gathered.
    let reported = statusReported(watcher.socket, 'gathering');
    socket.emit('bot_update', { accounts: [account('Rosa')] });
    await reported;
    reported = statusReported(watcher.socket, 'moving');
    socket.emit('bot_update', {
      accounts: [
        account('Rosa', { status: 'moving', stats: { gathered: 5, treasures: 0, kamas: 0, xp: 0 } }),
      ],
    });
    await reported;

    const closed = waitForClose(socket);
    expect((await call('DELETE', `/admin/users/${owner.user.id}/hwid`, undefined, staff.token)).status).toBe(
      200,
    );
    await closed;

    // Staff: the PCs of the user, the reset one among them, and its whole history, reset included.
    const pcs = await get<{ hwid: string; isCurrent: boolean; lastSeenAt: string }[]>(
      `/admin/users/${owner.user.id}/pcs`,
      staff.token,
    );
    expect(pcs).toEqual([expect.objectContaining({ hwid: owner.hwid, isCurrent: false })]);
    const forStaff = await vi.waitFor(async () => {
      const timeline = await get<BotTimeline>(`/admin/bots/${owner.hwid}/timeline`, staff.token);
      expect(timeline.entries.some((entry) => entry.kind === 'disconnected')).toBe(true);
      return timeline;
    });
    const resetForStaff = forStaff.entries.find((entry) => entry.action === 'user.hwid_reset');
    expect(resetForStaff?.actor).toBe(staff.user.username);
    expect(forStaff.entries.map((entry) => entry.kind)).toEqual(
      expect.arrayContaining(['bound', 'connected']),
    );

    // The customer: the same PC's time, the reset told as done by the team.
    const mine = await get<BotTimeline>('/me/bot/timeline', owner.token);
    expect(mine.hwid).toBe(owner.hwid);
    expect(mine.entries.map((entry) => entry.kind)).toEqual(expect.arrayContaining(['bound', 'connected']));
    const resetForCustomer = mine.entries.find((entry) => entry.action === 'user.hwid_reset');
    expect(resetForCustomer?.actor).toBe('l’équipe');
    expect(JSON.stringify(mine)).not.toContain(staff.user.username);

    // The last 24 hours of the PC they had stay on their bot page until another PC is bound.
    const bot = await get<{ hwid: string | null; history: { gathered: number }[] }>('/me/bot', owner.token);
    expect(bot.hwid).toBeNull();
    await vi.waitFor(async () => {
      const history = (await get<{ history: { gathered: number }[] }>('/me/bot', owner.token)).history;
      expect(history.reduce((sum, point) => sum + point.gathered, 0)).toBe(5);
    });
  });

  it('a user who never bound a PC has none to choose', async () => {
    const customer = await server.createUser();
    expect(await get(`/admin/users/${customer.user.id}/pcs`, staff.token)).toEqual([]);
    expect(
      (await call('GET', `/admin/users/${customer.user.id}/pcs`, undefined, customer.token)).status,
    ).toBe(403);
  });
});
