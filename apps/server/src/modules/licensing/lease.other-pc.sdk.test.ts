import { hwidHash, type RawHwidComponents } from '@bot/bot-agent';
import { KEY_SET_PATH } from '@bot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';
import { attackBench, genuineKeySetAnswer } from '../../../test/helpers/fake-platform.ts';
import { createBotOwner, newHwid } from '../../../test/helpers/realtime.ts';

/**
 * The lease names the PC it was issued for (docs/licensing.md): the bound hwid's hash, and the hash
 * of the hwid the agent itself sent when the platform recognised it by its parts under another one
 * (decision 906). The session answer's `hwid` is not signed: an agent takes a bound hwid other than
 * its own only from a lease that names its own too.
 */
let server: TestServer;
const bench = attackBench(() => server);

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await bench.close();
  await server?.close();
});

function newPc(): Required<RawHwidComponents> {
  const tag = newHwid();
  return {
    machine: `machine-${tag}`,
    disk: `disk-${tag}`,
    board: `board-${tag}`,
    nic: `02:00:${tag.slice(-8)}`,
    cpu: 'Test CPU 3000',
  };
}

describe('a proxy passing PC A’s lease off as PC B’s', () => {
  it('an unpatched agent on PC B refuses the genuine lease of PC A that a proxy passes off as its own (LEASE_OTHER_PC)', async () => {
    // The customer owns one licence, bound to PC A. A proxy on PC B rewrites the session request's
    // hwid to A's and adds `hwid: A` to the answer: the real platform signs a lease for A.
    const owner = await createBotOwner(server);
    const pcB = newHwid();
    const fake = await bench.fakePlatform(async (req, body) => {
      if (req.url === KEY_SET_PATH) return { status: 200, json: await genuineKeySetAnswer(server) };
      if (req.url?.startsWith('/api/')) {
        const parsed = body ? (JSON.parse(body) as Record<string, unknown>) : undefined;
        if (parsed && parsed.hwid === pcB) parsed.hwid = owner.hwid;
        const answer = await bench.forward(req.url, req.method, parsed ? JSON.stringify(parsed) : undefined);
        if (req.url === '/api/bot/sessions') answer.json.hwid = owner.hwid;
        return answer;
      }
      return undefined;
    });
    const { client } = bench.agent(fake.url, { accessKey: owner.accessKey, hwid: pcB });
    await expect(client.openSession()).rejects.toMatchObject({ code: 'LEASE_OTHER_PC' });
    // The SDK's own check: a lease of another PC is not taken, whatever the (unsigned) answer says.
    expect(client.lease).toBeNull();
    expect(client.hwid).toBe(pcB);
  });
});

describe('a PC recognised by its parts under a new hwid (decision 906)', () => {
  it('runs on the bound hwid: its first lease and its renewals name the hwid it sent beside the bound one', async () => {
    // A customer whose PC is not bound yet.
    const user = await server.createUser({ permissions: ['can_useGathering'] });
    const key = await apiClient(server)<{ data: { accessKey: string } }>(
      'GET',
      '/me/bot-key',
      undefined,
      user.token,
    );
    const accessKey = key.body.data.accessKey;
    const pc = newPc();
    const firstHwid = newHwid();
    const first = bench.agent(server.url, { accessKey, hwid: firstHwid, components: pc }).client;
    // Bound for the first time: its lease names its hwid, and no other.
    await first.openSession();
    expect(first.lease?.claims.hwid).toBe(hwidHash(firstHwid));
    expect(first.lease?.claims.agentHwid).toBeUndefined();

    // The network card changes and the agent derives another hwid: recognised as the bound PC.
    const newHwidOfPc = newHwid();
    const { client } = bench.agent(server.url, {
      accessKey,
      hwid: newHwidOfPc,
      components: { ...pc, nic: '02:00:de:ad:be:ef' },
    });
    await client.openSession();
    expect(client.hwid).toBe(firstHwid);
    expect(client.lease?.claims).toMatchObject({
      hwid: hwidHash(firstHwid),
      agentHwid: hwidHash(newHwidOfPc),
    });
    const renewed = await client.renewLease();
    expect(renewed.claims).toMatchObject({ hwid: hwidHash(firstHwid), agentHwid: hwidHash(newHwidOfPc) });
  });
});
