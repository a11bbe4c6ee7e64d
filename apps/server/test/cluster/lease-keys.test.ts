import { LeaseVerifier } from '@bot/bot-agent';
import { JWKS_PATH, type PublicJwks } from '@bot/contracts';
import { decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadDevelopmentRoot, signKeySet } from '../../src/modules/licensing/index.ts';
import { apiClient, type TestServer } from '../harness.ts';
import { createBotOwner } from '../helpers/realtime.ts';
import { type InProcessCluster, startInProcessCluster } from './in-process-cluster.ts';

let cluster: InProcessCluster;
let nodeA: TestServer;
let nodeB: TestServer;

beforeAll(async () => {
  cluster = await startInProcessCluster({ nodes: 2 });
  [nodeA, nodeB] = cluster.nodes as [TestServer, TestServer];
});
afterAll(() => cluster?.close());

async function keysOf(node: TestServer): Promise<PublicJwks> {
  return (await fetch(`${node.url}${JWKS_PATH}`)).json() as Promise<PublicJwks>;
}

async function leaseFrom(node: TestServer, owner: { accessKey: string; hwid: string }): Promise<string> {
  const answer = await apiClient(node)<{ lease: string }>('POST', '/bot/sessions', {
    accessKey: owner.accessKey,
    hwid: owner.hwid,
    version: '1.0.0',
  });
  expect(answer.status).toBe(201);
  return answer.body.lease;
}

it('a lease signed on node A verifies against node B’s key set, offline, before and after a rotation on B', async () => {
  const owner = await createBotOwner(nodeA);
  const fromA = await leaseFrom(nodeA, owner);
  const keysOfB = await keysOf(nodeB);
  expect(keysOfB).toEqual(await keysOf(nodeA));
  await new LeaseVerifier({ hwid: owner.hwid, keys: keysOfB }).verifyOffline(fromA);

  // The operator's keys:rotate, run beside node B (the root signs; the standby takes over).
  const ctx = nodeB.ctx;
  await signKeySet(ctx, {
    root: await loadDevelopmentRoot(ctx),
    rotate: 'lease',
    actor: { id: null, username: 'test', ip: null },
  });
  const afterRotation = await leaseFrom(nodeA, owner);
  const rotatedKid = decodeProtectedHeader(afterRotation).kid as string;
  expect(rotatedKid).not.toBe(decodeProtectedHeader(fromA).kid);
  const keysNow = await keysOf(nodeA);
  // The lease keys (the release manifests' key is published beside them, decision 910).
  expect(
    keysNow.keys
      .filter((key) => key.purpose === 'lease')
      .map((key) => key.kid)
      .sort(),
  ).toEqual([rotatedKid, decodeProtectedHeader(fromA).kid as string].sort());
  const verifier = new LeaseVerifier({ hwid: owner.hwid, keys: keysNow });
  await verifier.verifyOffline(fromA);
  await verifier.verifyOffline(afterRotation);
});
