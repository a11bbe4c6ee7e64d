import {
  type BotApiError,
  createBotClient,
  hashHwidComponents,
  hwidHash,
  type RawHwidComponents,
} from '@bot/bot-agent';
import type { BotState, BotTimeline, HwidMatchPolicy, HwidResetAllowance } from '@bot/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';
import {
  account,
  connectAndAuthenticate,
  newHwid,
  type TestSocket,
  waitFor,
  whitelist,
} from '../../../test/helpers/realtime.ts';
import { auditLog } from '../audit/index.ts';
import { updateSettings } from '../settings/index.ts';
import { hwidComponents } from './pcs.table.ts';

let server: TestServer;
let call: ReturnType<typeof apiClient>;
const sockets: TestSocket[] = [];
const clients: { stop(): Promise<void> }[] = [];

beforeAll(async () => {
  server = await startTestServer({ rateLimits: { botSession: { max: 10_000, windowMs: 60_000 } } });
  call = apiClient(server);
});
afterAll(async () => {
  for (const client of clients) await client.stop();
  for (const socket of sockets) socket.disconnect();
  await server.close();
});

const SYSTEM = { id: null, username: 'test', ip: null };

async function newOwner(accounts: string[] = [`acc-${newHwid().slice(-8)}`]) {
  const owner = await server.createUser({ permissions: ['can_useGathering', 'can_useTreasure'] });
  await whitelist(server, owner.user.id, accounts);
  const key = await call<{ data: { accessKey: string } }>('GET', '/me/bot-key', undefined, owner.token);
  return { ...owner, accessKey: key.body.data.accessKey, accounts };
}

/** The raw parts of a fresh PC (what an agent reads; the SDK sends their HMACs). */
function newPc(): Required<RawHwidComponents> {
  const tag = newHwid();
  return {
    machine: `machine-${tag}`,
    disk: `disk-${tag}`,
    board: `board-${tag}`,
    nic: `02:00:${tag.slice(-8)}`,
    cpu: `cpu-${tag}`,
  };
}

/** `POST /bot/sessions` as an agent of decision 906 sends it (hashed with the SDK's default key). */
function openSession(accessKey: string, hwid: string, raw?: RawHwidComponents) {
  return call<{ hwid: string; token: string; code?: string }>('POST', '/bot/sessions', {
    accessKey,
    hwid,
    version: '1.0.0',
    ...(raw ? { components: hashHwidComponents(raw) } : {}),
  });
}

async function withPolicy(policy: HwidMatchPolicy, run: () => Promise<void>): Promise<void> {
  await updateSettings(server.ctx, { patch: { hwidMatchPolicy: policy }, actor: SYSTEM });
  try {
    await run();
  } finally {
    await updateSettings(server.ctx, { patch: { hwidMatchPolicy: 'most' }, actor: SYSTEM });
  }
}

/** The bound PC's reference components, or (`seen`) its parts as last reported when they differ. */
async function storedComponents(userId: string, slot: 'bound' | 'seen' = 'bound') {
  const [row] = await server.ctx.db
    .select()
    .from(hwidComponents)
    .where(and(eq(hwidComponents.userId, userId), eq(hwidComponents.slot, slot)));
  return row;
}

const allowanceOf = async (token: string) =>
  (await call<{ data: HwidResetAllowance }>('GET', '/me/hwid-resets', undefined, token)).body.data;

describe('a PC is its hashed components (decision 906)', () => {
  it('one new part (a network card) under a new hwid: the same PC, updated, audited, in the timeline', async () => {
    const owner = await newOwner();
    const pc = newPc();
    const firstHwid = newHwid();
    const first = createBotClient({
      serverUrl: server.url,
      trustRoot: server.trustRoot,
      accessKey: owner.accessKey,
      hwid: firstHwid,
      components: pc,
      version: '1.0.0',
    });
    await first.openSession();
    expect(first.hwid).toBe(firstHwid);
    const bound = await storedComponents(owner.user.id);
    expect(bound?.components).toEqual(hashHwidComponents(pc));
    expect(JSON.stringify(bound?.components)).not.toContain(pc.nic); // never a raw value

    // The network card changes, and the agent derives another hwid: still this PC.
    const swapped = { ...pc, nic: '02:00:de:ad:be:ef' };
    const agent = createBotClient({
      serverUrl: server.url,
      trustRoot: server.trustRoot,
      accessKey: owner.accessKey,
      hwid: newHwid(),
      components: swapped,
      version: '1.0.0',
    });
    clients.push(agent);
    const watcher = await connectAndAuthenticate(server, {
      type: 'client',
      token: owner.token,
      hwid: firstHwid,
    });
    sockets.push(watcher.socket);
    await agent.connect();
    // Bound as the first hwid: its socket, its room and its lease follow that id.
    expect(agent.hwid).toBe(firstHwid);
    expect(agent.lease).not.toBeNull();
    expect((await agent.renewLease()).claims.hwid).toBe(hwidHash(firstHwid)); // renewed as that PC
    const seen = waitFor<BotState>(watcher.socket, 'bot_update', (state) => state.online);
    agent.report({ accounts: [account(owner.accounts[0]!)] });
    expect((await seen).hwid).toBe(firstHwid);

    const info = await call<{ data: { hwid: string } }>('GET', '/me/info', undefined, owner.token);
    expect(info.body.data.hwid).toBe(firstHwid);
    // The part follows; the reference (the PC as bound) stays, and no unbind is spent.
    expect((await storedComponents(owner.user.id, 'seen'))?.components).toEqual(hashHwidComponents(swapped));
    expect((await storedComponents(owner.user.id))?.components).toEqual(hashHwidComponents(pc));
    expect(await allowanceOf(owner.token)).toMatchObject({ used: 0, remaining: 3 });

    const audit = await server.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, owner.user.id), eq(auditLog.action, 'user.hwid_component_changed')));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actorId: owner.user.id,
      before: { hwid: firstHwid, nic: hashHwidComponents(pc).nic },
      after: { hwid: firstHwid, changed: 'carte réseau', nic: hashHwidComponents(swapped).nic },
    });

    const timeline = await call<{ data: BotTimeline }>('GET', '/me/bot/timeline', undefined, owner.token);
    const changed = timeline.body.data.entries.filter((entry) => entry.kind === 'component_changed');
    expect(changed).toMatchObject([{ message: 'carte réseau' }]);

    // The same session again changes nothing more.
    expect((await openSession(owner.accessKey, newHwid(), swapped)).body.hwid).toBe(firstHwid);
    const timelineAgain = await call<{ data: BotTimeline }>(
      'GET',
      '/me/bot/timeline',
      undefined,
      owner.token,
    );
    expect(
      timelineAgain.body.data.entries.filter((entry) => entry.kind === 'component_changed'),
    ).toHaveLength(1);
  });

  it('three of five parts changed: another PC, refused (HWID_MISMATCH), even through the SDK', async () => {
    const owner = await newOwner();
    const pc = newPc();
    const hwid = newHwid();
    expect((await openSession(owner.accessKey, hwid, pc)).status).toBe(201);
    const other = { ...pc, disk: 'disk-new', board: 'board-new', nic: '02:00:00:00:00:99' };
    expect(await openSession(owner.accessKey, newHwid(), other)).toMatchObject({
      status: 403,
      body: { code: 'HWID_MISMATCH' },
    });
    // Sending fewer parts does not help: a part the agent leaves out counts as changed.
    expect(await openSession(owner.accessKey, newHwid(), { machine: pc.machine, nic: pc.nic })).toMatchObject(
      {
        status: 403,
        body: { code: 'HWID_MISMATCH' },
      },
    );
    const agent = createBotClient({
      serverUrl: server.url,
      trustRoot: server.trustRoot,
      accessKey: owner.accessKey,
      hwid: newHwid(),
      components: other,
      version: '1.0.0',
    });
    await expect(agent.connect()).rejects.toMatchObject({
      code: 'HWID_MISMATCH',
    } satisfies Partial<BotApiError>);
    expect((await storedComponents(owner.user.id))?.components).toEqual(hashHwidComponents(pc));
  });

  it('an agent that sends only a hwid works as before: its hwid is its one component', async () => {
    const owner = await newOwner();
    const hwid = newHwid();
    const first = await openSession(owner.accessKey, hwid);
    expect(first).toMatchObject({ status: 201, body: { hwid } });
    expect(await storedComponents(owner.user.id)).toBeUndefined();
    expect(await openSession(owner.accessKey, hwid)).toMatchObject({ status: 201, body: { hwid } });
    expect(await openSession(owner.accessKey, newHwid())).toMatchObject({
      status: 403,
      body: { code: 'HWID_MISMATCH' },
    });
    // An agent of 906 on that PC (same hwid) is the same PC and gives the binding its components.
    const pc = newPc();
    expect(await openSession(owner.accessKey, hwid, pc)).toMatchObject({ status: 201, body: { hwid } });
    expect((await storedComponents(owner.user.id))?.components).toEqual(hashHwidComponents(pc));
    // ...and the old agent of that PC still runs.
    expect(await openSession(owner.accessKey, hwid)).toMatchObject({ status: 201, body: { hwid } });
  });

  it('the policy decides: "all" refuses one new part, "atLeastTwo" accepts three, counted as an unbind', async () => {
    const owner = await newOwner();
    const pc = newPc();
    const hwid = newHwid();
    expect((await openSession(owner.accessKey, hwid, pc)).status).toBe(201);
    const oneNew = { ...pc, nic: '02:00:00:00:00:01' };
    await withPolicy('all', async () => {
      expect(await openSession(owner.accessKey, newHwid(), oneNew)).toMatchObject({
        status: 403,
        body: { code: 'HWID_MISMATCH' },
      });
    });
    const threeNew = { ...pc, disk: 'disk-3', board: 'board-3', nic: '02:00:00:00:00:03' };
    await withPolicy('atLeastTwo', async () => {
      expect(await openSession(owner.accessKey, newHwid(), threeNew)).toMatchObject({
        status: 201,
        body: { hwid },
      });
    });
    // Recognised, but most parts changed since the binding: one unbind spent, the reference moves.
    expect((await storedComponents(owner.user.id))?.components).toEqual(hashHwidComponents(threeNew));
    expect(await allowanceOf(owner.token)).toMatchObject({ used: 1, remaining: 2 });
  });

  it('a PC just unbound is recognised by its parts too (decision 207); another PC binds', async () => {
    const owner = await newOwner();
    const pc = newPc();
    expect((await openSession(owner.accessKey, newHwid(), pc)).status).toBe(201);
    expect((await call('DELETE', '/me/hwid', undefined, owner.token)).status).toBe(200);
    expect(await openSession(owner.accessKey, newHwid(), { ...pc, nic: '02:00:00:00:00:07' })).toMatchObject({
      status: 403,
      body: { code: 'HWID_RELEASED' },
    });
    const next = newHwid();
    expect(await openSession(owner.accessKey, next, newPc())).toMatchObject({
      status: 201,
      body: { hwid: next },
    });
  });
});
