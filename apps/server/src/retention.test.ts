import { inArray, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../test/harness.ts';
import { newId } from './core/ids.ts';
import { discordOutbox } from './modules/alerts/index.ts';
import { auditLog } from './modules/audit/index.ts';
import { userTokens } from './modules/auth/index.ts';
import { botActivityMinutes, botEvents, botSessions } from './modules/bots/index.ts';
import { botCommands } from './modules/commands/index.ts';
import { mailOutbox } from './modules/mail/index.ts';
import { paymentEvents, paymentWebhookCalls } from './modules/payments/index.ts';
import { agentVersionSamples } from './modules/releases/index.ts';
import { updateSettings } from './modules/settings/index.ts';
import { pruneOldRows } from './retention.ts';

/**
 * The tables that only grow keep their retention setting (docs/capacity.md, "Retention"): the loop's
 * function deletes what is older, keeps what is younger, and never what is still needed, however old.
 */
let server: TestServer;
let call: ReturnType<typeof apiClient>;
let admin: TestUser;
let owner: TestUser;

const DAY_MS = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);
const HWID = 'retention-pc';

beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
  admin = await server.createUser({ isAdministrator: true });
  owner = await server.createUser();
});
afterAll(() => server.close());

/** Which of the given ids (or keys) the table still holds. */
async function remaining(table: PgTable, column: PgColumn, ids: string[]) {
  const rows = await server.ctx.db.select({ id: column }).from(table).where(inArray(column, ids));
  return rows.map((row) => String(row.id)).sort();
}

/** An order of `owner`, pending or paid through the sandbox. */
async function order(paid: boolean): Promise<string> {
  const pkg = await call<{ data: { id: string } }>(
    'POST',
    '/admin/packages',
    {
      name: `Offre ${newId().slice(-6)}`,
      priceCents: 500,
      durationDays: 30,
      grants: ['can_useGathering'],
      whitelistSlots: 1,
    },
    admin.token,
  );
  const created = await call<{ data: { id: string } }>(
    'POST',
    '/me/orders',
    { packageId: pkg.body.data.id },
    owner.token,
  );
  const id = created.body.data.id;
  if (paid) await call('POST', `/payments/sandbox/${id}/succeed`, undefined, owner.token);
  return id;
}

describe('the retention loop', () => {
  it('deletes every table’s rows older than its setting, keeps the younger and those still needed', async () => {
    const { db } = server.ctx;
    const userId = owner.user.id;
    const ids = (...names: string[]) => Object.fromEntries(names.map((name) => [name, newId()]));

    // Bot events (90 days): the PC's latest connection stays whatever its age (the timeline reads it).
    const events = ids('old', 'young', 'oldConnected', 'latestConnected');
    const event = (id: string, kind: 'error' | 'connected', at: Date) => ({
      id,
      hwid: HWID,
      userId,
      kind,
      at,
    });
    await db
      .insert(botEvents)
      .values([
        event(events.old as string, 'error', daysAgo(100)),
        event(events.young as string, 'error', daysAgo(80)),
        event(events.oldConnected as string, 'connected', daysAgo(300)),
        event(events.latestConnected as string, 'connected', daysAgo(200)),
      ]);

    // Bot sessions (30 days after their end): an open one stays however old.
    const sessions = ids('revokedLongAgo', 'expiredLongAgo', 'revokedLately', 'open');
    const session = (id: string, createdAt: Date, expiresAt: Date, revokedAt: Date | null) => ({
      id,
      userId,
      tokenHash: id,
      hwid: HWID,
      botKeyHash: 'clé',
      version: '1.0.0',
      expiresAt,
      revokedAt,
      createdAt,
    });
    await db
      .insert(botSessions)
      .values([
        session(sessions.revokedLongAgo as string, daysAgo(50), daysAgo(20), daysAgo(40)),
        session(sessions.expiredLongAgo as string, daysAgo(50), daysAgo(40), null),
        session(sessions.revokedLately as string, daysAgo(50), daysAgo(-1), daysAgo(10)),
        session(sessions.open as string, daysAgo(100), daysAgo(-1), null),
      ]);

    // Bot commands (30 days after they finished): one the agent has not answered stays.
    const commands = ids('finishedLongAgo', 'finishedLately', 'unanswered');
    const command = (id: string, state: 'succeeded' | 'acknowledged', updatedAt: Date) => ({
      id,
      hwid: HWID,
      userId,
      kind: 'restart' as const,
      state,
      issuedByStaff: false,
      createdAt: daysAgo(100),
      updatedAt,
      expiresAt: daysAgo(99),
    });
    await db
      .insert(botCommands)
      .values([
        command(commands.finishedLongAgo as string, 'succeeded', daysAgo(40)),
        command(commands.finishedLately as string, 'succeeded', daysAgo(10)),
        command(commands.unanswered as string, 'acknowledged', daysAgo(100)),
      ]);

    // The minute history (30 days, was a fixed week): 20 days old stays.
    const minute = (days: number) => new Date(Math.floor(daysAgo(days).getTime() / 60_000) * 60_000);
    const minutes = [minute(31), minute(20)];
    await db
      .insert(botActivityMinutes)
      .values(minutes.map((at) => ({ userId, hwid: HWID, account: 'Compte', minute: at, reports: 1 })));

    // Outboxes (30 days after sent or given up): a mail still waiting stays however old.
    const mails = ids('sentLongAgo', 'failedLongAgo', 'sentLately', 'waiting');
    const outboxRow = (id: string, sentAt: Date | null, failedAt: Date | null) => ({
      id,
      sentAt,
      failedAt,
      createdAt: daysAgo(100),
      nextAttemptAt: daysAgo(100),
    });
    const outboxRows = (rows: typeof mails) => [
      outboxRow(rows.sentLongAgo as string, daysAgo(40), null),
      outboxRow(rows.failedLongAgo as string, null, daysAgo(40)),
      outboxRow(rows.sentLately as string, daysAgo(10), null),
      // Waiting for a retry in the future: the worker does not claim it during the test.
      { ...outboxRow(rows.waiting as string, null, null), nextAttemptAt: daysAgo(-1) },
    ];
    await db
      .insert(mailOutbox)
      .values(
        outboxRows(mails).map((row) => ({ ...row, to: 'a@example.com', subject: 's', text: '', html: '' })),
      );
    const messages = ids('sentLongAgo', 'failedLongAgo', 'sentLately', 'waiting');
    await db.insert(discordOutbox).values(
      outboxRows(messages).map((row) => ({
        ...row,
        url: 'https://discord.com/api/webhooks/1/a',
        payload: {},
      })),
    );

    // Payment webhooks (90 days): each provider's newest call stays, so does a pending order's event.
    const calls = ids('old', 'newestOfStripe', 'young');
    await db.insert(paymentWebhookCalls).values([
      { id: calls.old as string, provider: 'stripe', at: daysAgo(120), status: 200, accepted: true },
      {
        id: calls.newestOfStripe as string,
        provider: 'stripe',
        at: daysAgo(100),
        status: 400,
        accepted: false,
      },
      { id: calls.young as string, provider: 'sandbox', at: daysAgo(10), status: 200, accepted: true },
    ]);
    // A new checkout closes the customer's pending one: the pending order comes last.
    const paidOrder = await order(true);
    const pendingOrder = await order(false);
    const paymentEventIds = ids('orderless', 'paidOrder', 'pendingOrder', 'young');
    const paymentEvent = (id: string, orderId: string | null, receivedAt: Date) => ({
      id,
      provider: 'stripe',
      eventId: id,
      type: 'checkout.session.completed',
      orderId,
      outcome: 'fulfilled',
      receivedAt,
    });
    await db
      .insert(paymentEvents)
      .values([
        paymentEvent(paymentEventIds.orderless as string, null, daysAgo(100)),
        paymentEvent(paymentEventIds.paidOrder as string, paidOrder, daysAgo(100)),
        paymentEvent(paymentEventIds.pendingOrder as string, pendingOrder, daysAgo(100)),
        paymentEvent(paymentEventIds.young as string, null, daysAgo(80)),
      ]);

    // Version samples (30 days).
    const sampledAt = [daysAgo(40), daysAgo(10)];
    await db.insert(agentVersionSamples).values(sampledAt.map((at) => ({ at, version: '9.9.9', bots: 1 })));

    // Links (30 days after used or expired): one still usable stays however old.
    const tokens = ids('usedLongAgo', 'expiredLongAgo', 'usedLately', 'usable');
    const token = (id: string, expiresAt: Date, usedAt: Date | null) => ({
      id,
      userId,
      kind: 'reset' as const,
      tokenHash: id,
      expiresAt,
      usedAt,
      createdAt: daysAgo(100),
    });
    await db
      .insert(userTokens)
      .values([
        token(tokens.usedLongAgo as string, daysAgo(-1), daysAgo(40)),
        token(tokens.expiredLongAgo as string, daysAgo(40), null),
        token(tokens.usedLately as string, daysAgo(5), daysAgo(10)),
        token(tokens.usable as string, daysAgo(-1), null),
      ]);

    // The audit trail (365 days).
    const audits = ids('old', 'young');
    await db.insert(auditLog).values([
      { id: audits.old as string, at: daysAgo(400), action: 'test.retention' },
      { id: audits.young as string, at: daysAgo(300), action: 'test.retention' },
    ]);

    const deleted = await pruneOldRows(server.ctx);

    const keep = (rows: Record<string, string>, ...names: string[]) => names.map((name) => rows[name]).sort();
    expect(await remaining(botEvents, botEvents.id, Object.values(events))).toEqual(
      keep(events, 'young', 'latestConnected'),
    );
    expect(await remaining(botSessions, botSessions.id, Object.values(sessions))).toEqual(
      keep(sessions, 'revokedLately', 'open'),
    );
    expect(await remaining(botCommands, botCommands.id, Object.values(commands))).toEqual(
      keep(commands, 'finishedLately', 'unanswered'),
    );
    const minutesLeft = await db.select({ minute: botActivityMinutes.minute }).from(botActivityMinutes);
    expect(minutesLeft.map((row) => row.minute.getTime())).toEqual([minutes[1]?.getTime()]);
    expect(await remaining(mailOutbox, mailOutbox.id, Object.values(mails))).toEqual(
      keep(mails, 'sentLately', 'waiting'),
    );
    expect(await remaining(discordOutbox, discordOutbox.id, Object.values(messages))).toEqual(
      keep(messages, 'sentLately', 'waiting'),
    );
    expect(await remaining(paymentWebhookCalls, paymentWebhookCalls.id, Object.values(calls))).toEqual(
      keep(calls, 'newestOfStripe', 'young'),
    );
    expect(await remaining(paymentEvents, paymentEvents.id, Object.values(paymentEventIds))).toEqual(
      keep(paymentEventIds, 'pendingOrder', 'young'),
    );
    const samplesLeft = await db.select({ at: agentVersionSamples.at }).from(agentVersionSamples);
    expect(samplesLeft.map((row) => row.at.getTime())).toEqual([sampledAt[1]?.getTime()]);
    expect(await remaining(userTokens, userTokens.id, Object.values(tokens))).toEqual(
      keep(tokens, 'usedLately', 'usable'),
    );
    expect(await remaining(auditLog, auditLog.id, Object.values(audits))).toEqual(keep(audits, 'young'));
    expect(deleted).toMatchObject({ bot_events: 2, bot_sessions: 2, audit_log: 1 });
  });

  it('reads the minute history’s retention from its setting', async () => {
    const { db } = server.ctx;
    const userId = owner.user.id;
    const at = (days: number) => new Date(Math.floor(daysAgo(days).getTime() / 60_000) * 60_000);
    await db.delete(botActivityMinutes);
    await db
      .insert(botActivityMinutes)
      .values(
        [12, 8].map((days) => ({ userId, hwid: HWID, account: 'Compte', minute: at(days), reports: 1 })),
      );
    await pruneOldRows(server.ctx);
    expect(await db.select().from(botActivityMinutes)).toHaveLength(2);
    await updateSettings(server.ctx, {
      patch: { botHistoryRetentionDays: 10 },
      actor: { id: admin.user.id, username: admin.user.username, ip: null },
    });
    await pruneOldRows(server.ctx);
    const left = await db.select({ minute: botActivityMinutes.minute }).from(botActivityMinutes);
    expect(left.map((row) => row.minute.getTime())).toEqual([at(8).getTime()]);
  });

  it('deletes a backlog in bounded batches, all of it over one run', async () => {
    const { db } = server.ctx;
    const rows = Array.from({ length: 2_500 }, (_, i) => ({
      at: new Date(daysAgo(60).getTime() - i * 60_000),
      version: '1.0.0',
      bots: 1,
    }));
    for (let i = 0; i < rows.length; i += 500)
      await db.insert(agentVersionSamples).values(rows.slice(i, i + 500));
    const deleted = await pruneOldRows(server.ctx);
    expect(deleted.agent_version_samples).toBe(2_500);
  });
});

describe('the embedded database', () => {
  it('reuses the space of pruned rows (it has no autovacuum): a table pruned and filled again does not grow', async () => {
    const { ctx } = server;
    if (ctx.engine !== 'pglite') return;
    const size = async () =>
      Number(
        (
          (await ctx.db.execute(
            sql`select pg_relation_size('agent_version_samples') as bytes`,
          )) as unknown as {
            rows: { bytes: string }[];
          }
        ).rows[0]?.bytes,
      );
    const fill = async (days: number) => {
      const rows = Array.from({ length: 3_000 }, (_, i) => ({
        at: new Date(daysAgo(days).getTime() - i * 60_000),
        version: '2.0.0',
        bots: 1,
      }));
      for (let i = 0; i < rows.length; i += 500)
        await ctx.db.insert(agentVersionSamples).values(rows.slice(i, i + 500));
    };
    await fill(60);
    const full = await size();
    // Two days on: past the earlier tests' vacuum, which runs once a day per table.
    expect((await pruneOldRows(ctx, new Date(Date.now() + 2 * DAY_MS))).agent_version_samples).toBe(3_000);
    await fill(1);
    expect(await size()).toBeLessThanOrEqual(full);
  });
});

describe('the audit trail’s retention', () => {
  it('refuses less than a year with a French 400; a change is itself audited', async () => {
    const refused = await call<{ error: string; code: string }>(
      'PUT',
      '/admin/settings',
      { auditRetentionDays: 364 },
      admin.token,
    );
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('VALIDATION_ERROR');
    expect(refused.body.error).toContain('Le journal d’audit est conservé au moins 365 jours (un an).');

    const saved = await call<{ data: { auditRetentionDays: number } }>(
      'PUT',
      '/admin/settings',
      { auditRetentionDays: 730 },
      admin.token,
    );
    expect(saved.status).toBe(200);
    expect(saved.body.data.auditRetentionDays).toBe(730);
    const history = await call<{ data: { actorUsername: string; before: unknown; after: unknown }[] }>(
      'GET',
      '/admin/settings/history',
      undefined,
      admin.token,
    );
    expect(history.body.data[0]).toMatchObject({
      actorUsername: admin.user.username,
      before: { auditRetentionDays: 365 },
      after: { auditRetentionDays: 730 },
    });
  });
});
