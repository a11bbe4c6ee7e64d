import { hashHwidComponents, type RawHwidComponents } from '@bot/bot-agent';
import type { BotTimeline, HwidResetAllowance } from '@bot/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';
import { newHwid, whitelist } from '../../../test/helpers/realtime.ts';
import { auditLog } from '../audit/index.ts';
import { botEvents } from '../bots/index.ts';
import { updateSettings } from '../settings/index.ts';
import { users } from '../users/index.ts';
import { hwidComponents } from './pcs.table.ts';

/*
 * Decision 906: a PC is compared with its reference (its parts as bound, or as last moved by a
 * counted change), not with a running merge of every part it ever reported, so replacing its parts
 * one session at a time cannot carry the binding to another PC without spending an unbind.
 */

let server: TestServer;
let call: ReturnType<typeof apiClient>;
const SYSTEM = { id: null, username: 'test', ip: null };

beforeAll(async () => {
  server = await startTestServer({ rateLimits: { botSession: { max: 10_000, windowMs: 60_000 } } });
  call = apiClient(server);
});
afterAll(() => server.close());

async function newOwner() {
  const owner = await server.createUser({ permissions: ['can_useGathering'] });
  await whitelist(server, owner.user.id, [`acc-${newHwid().slice(-8)}`]);
  const key = await call<{ data: { accessKey: string } }>('GET', '/me/bot-key', undefined, owner.token);
  return { ...owner, accessKey: key.body.data.accessKey };
}

/** PC A (every part `a`) and the parts that replace them one by one (`b`). */
function twoPcs(): { a: Required<RawHwidComponents>; b: Required<RawHwidComponents> } {
  const tag = newHwid();
  const pc = (side: string) => ({
    machine: `machine-${side}-${tag}`,
    disk: `disk-${side}-${tag}`,
    board: `board-${side}-${tag}`,
    nic: `nic-${side}-${tag}`,
    cpu: `cpu-${side}-${tag}`,
  });
  return { a: pc('a'), b: pc('b') };
}

/** `POST /bot/sessions` as the SDK sends it: the parts hashed with its default product key. */
function openSession(accessKey: string, hwid: string, raw: RawHwidComponents) {
  return call<{ hwid: string; code?: string; error?: string; details?: { nextResetAt: string } }>(
    'POST',
    '/bot/sessions',
    { accessKey, hwid, version: '1.0.0', components: hashHwidComponents(raw) },
  );
}

const allowanceOf = async (token: string) =>
  (await call<{ data: HwidResetAllowance }>('GET', '/me/hwid-resets', undefined, token)).body.data;

async function timelineKinds(token: string, kind: string) {
  const timeline = await call<{ data: BotTimeline }>('GET', '/me/bot/timeline', undefined, token);
  return timeline.body.data.entries.filter((entry) => entry.kind === kind);
}

async function storedSlot(userId: string, slot: 'bound' | 'seen' | 'released') {
  const [row] = await server.ctx.db
    .select()
    .from(hwidComponents)
    .where(and(eq(hwidComponents.userId, userId), eq(hwidComponents.slot, slot)));
  return row?.components;
}

async function withSettings(
  patch: Parameters<typeof updateSettings>[1]['patch'],
  run: () => Promise<void>,
): Promise<void> {
  await updateSettings(server.ctx, { patch, actor: SYSTEM });
  try {
    await run();
  } finally {
    await updateSettings(server.ctx, {
      patch: { hwidMatchPolicy: 'most', hwidResetsPerMonth: 3, hwidResetCooldownHours: 24 },
      actor: SYSTEM,
    });
  }
}

describe('the binding cannot drift to another PC without an unbind (decision 906)', () => {
  it('A → 3A+2B → 1A+4B → all B: the step that changes most parts since binding spends one unbind; A is then another PC', async () => {
    const owner = await newOwner();
    const { a, b } = twoPcs();
    const hwid = newHwid();
    expect(await openSession(owner.accessKey, hwid, a)).toMatchObject({ status: 201, body: { hwid } });
    expect(await allowanceOf(owner.token)).toMatchObject({ used: 0, remaining: 3 });

    // Two parts replaced: still more than half of the bound PC, free.
    const step1 = { ...a, nic: b.nic, cpu: b.cpu };
    expect(await openSession(owner.accessKey, newHwid(), step1)).toMatchObject({
      status: 201,
      body: { hwid },
    });
    expect(await allowanceOf(owner.token)).toMatchObject({ used: 0, remaining: 3 });
    expect(await storedSlot(owner.user.id, 'bound')).toEqual(hashHwidComponents(a)); // the reference stays
    expect(await storedSlot(owner.user.id, 'seen')).toEqual(hashHwidComponents(step1));

    // Two more: against the PC last seen it is one step, against the bound PC four parts of five.
    const step2 = { ...b, machine: a.machine };
    expect(await openSession(owner.accessKey, newHwid(), step2)).toMatchObject({
      status: 201,
      body: { hwid },
    });
    expect(await allowanceOf(owner.token)).toMatchObject({ used: 1, remaining: 2 });
    expect(await timelineKinds(owner.token, 'pc_changed')).toMatchObject([
      { message: 'disque système, carte mère (BIOS), carte réseau, processeur' },
    ]);
    const audit = await server.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, owner.user.id), eq(auditLog.action, 'user.hwid_rebound')));
    expect(audit).toMatchObject([
      { actorId: owner.user.id, before: { hwid, nic: hashHwidComponents(a).nic }, after: { hwid } },
    ]);
    expect(await storedSlot(owner.user.id, 'bound')).toEqual(hashHwidComponents(step2)); // moved

    // The last part: one of five against the new reference, free.
    expect(await openSession(owner.accessKey, newHwid(), b)).toMatchObject({ status: 201, body: { hwid } });
    expect(await allowanceOf(owner.token)).toMatchObject({ used: 1, remaining: 2 });
    expect(await timelineKinds(owner.token, 'pc_changed')).toHaveLength(1);

    // PC A now shares one part with the reference and none with the PC last seen: another PC.
    expect(await openSession(owner.accessKey, newHwid(), a)).toMatchObject({
      status: 403,
      body: { code: 'HWID_MISMATCH' },
    });
  });

  it('with no unbind left, that step is refused (HWID_CHANGE_LIMIT) and changes nothing; the PC last seen still runs', async () => {
    await withSettings({ hwidResetsPerMonth: 1, hwidResetCooldownHours: 0 }, async () => {
      const owner = await newOwner();
      const { a, b } = twoPcs();
      expect((await openSession(owner.accessKey, newHwid(), a)).status).toBe(201);
      expect((await call('DELETE', '/me/hwid', undefined, owner.token)).status).toBe(200);
      const hwid = newHwid();
      expect(await openSession(owner.accessKey, hwid, a)).toMatchObject({ status: 201, body: { hwid } });
      expect(await allowanceOf(owner.token)).toMatchObject({ used: 1, remaining: 0 });

      const step1 = { ...a, nic: b.nic, cpu: b.cpu };
      expect((await openSession(owner.accessKey, newHwid(), step1)).status).toBe(201);
      const refused = await openSession(owner.accessKey, newHwid(), { ...b, machine: a.machine });
      expect(refused).toMatchObject({ status: 403, body: { code: 'HWID_CHANGE_LIMIT' } });
      expect(refused.body.error).toContain('Ce PC a trop changé depuis sa liaison');
      expect(refused.body.error).toContain('votre déliaison sur 30 jours');
      expect(refused.body.error).toContain('Prochaine déliaison possible le');
      // The next one comes back when the reset leaves the 30 days.
      expect(Date.parse(refused.body.details!.nextResetAt)).toBeGreaterThan(Date.now() + 29 * 86_400_000);

      expect(await storedSlot(owner.user.id, 'bound')).toEqual(hashHwidComponents(a));
      expect(await timelineKinds(owner.token, 'pc_changed')).toHaveLength(0);
      expect(await openSession(owner.accessKey, newHwid(), step1)).toMatchObject({
        status: 201,
        body: { hwid },
      });
    });
  });

  it("a refused change is on the owner's timeline (pc_refused, with the next unbind), once an hour however often the agent retries", async () => {
    const owner = await newOwner();
    const { a, b } = twoPcs();
    const hwid = newHwid();
    expect((await openSession(owner.accessKey, hwid, a)).status).toBe(201);
    expect((await openSession(owner.accessKey, hwid, { ...b, machine: a.machine })).status).toBe(201);
    const { b: c } = twoPcs();
    for (let attempt = 0; attempt < 3; attempt++) {
      const refused = await openSession(owner.accessKey, hwid, c);
      expect(refused).toMatchObject({ status: 403, body: { code: 'HWID_CHANGE_LIMIT' } });
    }
    const refusals = await timelineKinds(owner.token, 'pc_refused');
    expect(refusals).toHaveLength(1);
    expect(refusals[0]!.message).toMatch(/^Prochaine déliaison possible le \d{2}\/\d{2}\/\d{4}/);
    expect(refusals[0]!.message).toContain('carte réseau');

    // An hour later the agent still retries: one more entry, not one per attempt.
    await server.ctx.db
      .update(botEvents)
      .set({ at: new Date(Date.now() - 61 * 60_000) })
      .where(and(eq(botEvents.userId, owner.user.id), eq(botEvents.kind, 'pc_refused')));
    expect((await openSession(owner.accessKey, hwid, c)).status).toBe(403);
    expect((await openSession(owner.accessKey, hwid, c)).status).toBe(403);
    expect(await timelineKinds(owner.token, 'pc_refused')).toHaveLength(2);
  });

  it("staff read what the last counted unbind was: a counted PC change, or the customer's own déliaison", async () => {
    const owner = await newOwner();
    const staff = await server.createUser({ permissions: ['can_manageUsers'] });
    const { a, b } = twoPcs();
    const hwid = newHwid();
    const detail = async () =>
      (
        await call<{ data: { hwidResetAt: string | null; hwidResetKind: string | null } }>(
          'GET',
          `/admin/users/${owner.user.id}`,
          undefined,
          staff.token,
        )
      ).body.data;
    expect((await openSession(owner.accessKey, hwid, a)).status).toBe(201);
    expect(await detail()).toMatchObject({ hwidResetAt: null, hwidResetKind: null });
    expect((await openSession(owner.accessKey, hwid, { ...b, machine: a.machine })).status).toBe(201);
    expect(await detail()).toMatchObject({ hwidResetKind: 'pc_changed' });

    await server.ctx.db
      .update(users)
      .set({ hwidResetAt: new Date(Date.now() - 25 * 3_600_000) })
      .where(eq(users.id, owner.user.id));
    expect((await call('DELETE', '/me/hwid', undefined, owner.token)).status).toBe(200);
    expect(await detail()).toMatchObject({ hwidResetKind: 'unbind' });
  });

  it('under its bound hwid too: most parts changed count, and within the cooldown are refused until it ends', async () => {
    const owner = await newOwner();
    const { a, b } = twoPcs();
    const hwid = newHwid();
    expect((await openSession(owner.accessKey, hwid, a)).status).toBe(201);
    expect((await openSession(owner.accessKey, hwid, { ...a, nic: b.nic })).status).toBe(201);
    expect(await allowanceOf(owner.token)).toMatchObject({ used: 0 });
    const moved = { ...b, machine: a.machine };
    expect(await openSession(owner.accessKey, hwid, moved)).toMatchObject({ status: 201, body: { hwid } });
    expect(await allowanceOf(owner.token)).toMatchObject({ used: 1, remaining: 2 });

    // Moved again the same day: the cooldown of the unbind just counted (24 h) refuses it.
    const { b: c } = twoPcs();
    const refused = await openSession(owner.accessKey, hwid, c);
    expect(refused).toMatchObject({ status: 403, body: { code: 'HWID_CHANGE_LIMIT' } });
    expect(refused.body.error).toContain('vous avez délié votre PC trop récemment');
    expect(Date.parse(refused.body.details!.nextResetAt)).toBeGreaterThan(Date.now() + 23 * 3_600_000);

    // A day later (the counted change moved back 25 hours): it counts.
    await server.ctx.db
      .update(users)
      .set({ hwidResetAt: new Date(Date.now() - 25 * 3_600_000) })
      .where(eq(users.id, owner.user.id));
    expect(await openSession(owner.accessKey, hwid, c)).toMatchObject({ status: 201, body: { hwid } });
    expect(await allowanceOf(owner.token)).toMatchObject({ used: 2, remaining: 1 });
    expect(await timelineKinds(owner.token, 'pc_changed')).toHaveLength(2);
  });

  it('the PC unbound is the PC last seen: its bot is held back (decision 207) even under the policy "all"', async () => {
    await withSettings({ hwidMatchPolicy: 'all' }, async () => {
      const owner = await newOwner();
      const { a, b } = twoPcs();
      const hwid = newHwid();
      expect((await openSession(owner.accessKey, hwid, a)).status).toBe(201);
      const repaired = { ...a, nic: b.nic };
      expect((await openSession(owner.accessKey, hwid, repaired)).status).toBe(201);
      expect((await call('DELETE', '/me/hwid', undefined, owner.token)).status).toBe(200);
      expect(await storedSlot(owner.user.id, 'released')).toEqual(hashHwidComponents(repaired));
      expect(await openSession(owner.accessKey, newHwid(), repaired)).toMatchObject({
        status: 403,
        body: { code: 'HWID_RELEASED' },
      });
    });
  });
});
