import type { BotState } from '@bot/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { apiClient, type TestServer } from '../../../test/harness.ts';
import { announce } from '../../../test/helpers/events.ts';
import {
  account,
  collect,
  connectAndAuthenticate,
  createBotOwner,
  realtimeSuite,
  waitFor,
} from '../../../test/helpers/realtime.ts';
import { users } from '../users/index.ts';
import { addWhitelistEntryForCustomer } from '../whitelist/index.ts';

let server: TestServer;
const { track, connectBot } = realtimeSuite((started) => {
  server = started;
});

describe('revocation', () => {
  it('closes the sockets of a session on logout', async () => {
    const owner = await createBotOwner(server);
    const watcher = track(
      await connectAndAuthenticate(server, { type: 'client', token: owner.token, hwid: owner.hwid }),
    );
    const error = waitFor<{ code: string }>(watcher.socket, 'auth_error');
    const closed = waitFor(watcher.socket, 'disconnect');
    const call = apiClient(server);
    expect((await call('POST', '/auth/logout', undefined, owner.token)).status).toBe(200);
    expect((await error).code).toBe('UNAUTHORIZED');
    await closed;
  });

  it('closes the bot socket when the access key is rotated', async () => {
    const owner = await createBotOwner(server);
    const bot = await connectBot(owner);
    const closed = waitFor(bot.socket, 'disconnect');
    const call = apiClient(server);
    expect((await call('POST', '/me/bot-key', undefined, owner.token)).status).toBe(200);
    await closed;
    const again = track(
      await connectAndAuthenticate(server, { type: 'bot', token: owner.botToken, hwid: owner.hwid }),
    );
    expect(again.ack).toMatchObject({ ok: false, code: 'BOT_SESSION_INVALID' });
  });
});

describe('bans and PC resets', () => {
  it('a ban closes the browser and bot sockets and ends the bot sessions', async () => {
    const owner = await createBotOwner(server);
    const bot = await connectBot(owner);
    const watcher = track(
      await connectAndAuthenticate(server, { type: 'client', token: owner.token, hwid: owner.hwid }),
    );
    const botError = waitFor<{ code: string }>(bot.socket, 'auth_error');
    const watcherError = waitFor<{ code: string }>(watcher.socket, 'auth_error');
    await server.ctx.db.update(users).set({ bannedAt: new Date() }).where(eq(users.id, owner.user.id));
    await announce(server.ctx, 'user.banned', { userId: owner.user.id });
    expect((await botError).code).toBe('ACCOUNT_BANNED');
    expect((await watcherError).code).toBe('ACCOUNT_BANNED');
    await vi.waitFor(async () =>
      expect((await server.ctx.live.onlineBots()).some((state) => state.hwid === owner.hwid)).toBe(false),
    );
    const again = track(
      await connectAndAuthenticate(server, { type: 'bot', token: owner.botToken, hwid: owner.hwid }),
    );
    expect(again.ack).toMatchObject({ ok: false, code: 'BOT_SESSION_INVALID' });
  });

  it('unbinding the PC closes its bot socket and the owner watcher', async () => {
    const owner = await createBotOwner(server);
    const bot = await connectBot(owner);
    const watcher = track(
      await connectAndAuthenticate(server, { type: 'client', token: owner.token, hwid: owner.hwid }),
    );
    const botError = waitFor<{ code: string }>(bot.socket, 'auth_error');
    const watcherError = waitFor<{ code: string }>(watcher.socket, 'auth_error');
    expect((await apiClient(server)('DELETE', '/me/hwid', undefined, owner.token)).status).toBe(200);
    expect((await botError).code).toBe('BOT_SESSION_INVALID');
    expect((await watcherError).code).toBe('FORBIDDEN');
  });
});

describe('whitelist changes', () => {
  it('accepts an account as soon as staff whitelist it', async () => {
    const owner = await createBotOwner(server, { accounts: ['First'] });
    const bot = await connectBot(owner);
    const watcher = track(
      await connectAndAuthenticate(server, { type: 'client', token: owner.token, hwid: owner.hwid }),
    );
    bot.socket.emit('bot_update', { accounts: [account('First'), account('Second')] });
    const before = await waitFor<BotState>(watcher.socket, 'bot_update', (s) => s.accounts.length > 0);
    expect(before.accounts.map((a) => a.name)).toEqual(['First']);
    await addWhitelistEntryForCustomer(server.ctx, {
      username: owner.user.username,
      name: 'Second',
      actor: { id: null, username: 'test', ip: null },
    });
    // The hub re-reads the whitelist on the event: report until the new account comes through.
    const updates = collect<BotState>(watcher.socket, 'bot_update');
    await vi.waitFor(
      () => {
        if (updates.some((s) => s.accounts.length === 2)) return;
        bot.socket.emit('bot_update', { accounts: [account('First'), account('Second')] });
        throw new Error('the new account is not accepted yet');
      },
      { interval: 300 },
    );
    expect(updates.find((s) => s.accounts.length === 2)?.accounts.map((a) => a.name)).toEqual([
      'First',
      'Second',
    ]);
  });
});
