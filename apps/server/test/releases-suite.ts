import { createHash } from 'node:crypto';
import { RELEASE_PART_BYTES, type Release } from '@bot/contracts';
import { afterAll, beforeAll, expect } from 'vitest';
import { apiClient, startTestServer, type TestServer, type TestUser } from './harness.ts';

/**
 * One server for a release test file, with a staff member who manages releases and a customer with
 * a package, and the steps the admin page and the agents take (drafts, parts, publication, links).
 */
export function releasesSuite() {
  let server: TestServer;
  let call: ReturnType<typeof apiClient>;
  let staff: TestUser;
  let customer: TestUser;

  beforeAll(async () => {
    server = await startTestServer();
    call = apiClient(server);
    staff = await server.createUser({ permissions: ['can_manageSettings'] });
    customer = await server.createUser({ permissions: ['can_useGathering'] });
    // These files are about files and links: a build is offered to every bot at once. Staged
    // rollouts (decision 910) have their own tests.
    await call('PUT', '/admin/settings', { releaseRolloutPercent: 100 }, staff.token);
  });
  afterAll(() => server.close());

  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

  function partsOf(file: Buffer): Buffer[] {
    const parts: Buffer[] = [];
    for (let offset = 0; offset < file.length; offset += RELEASE_PART_BYTES) {
      parts.push(file.subarray(offset, offset + RELEASE_PART_BYTES));
    }
    return parts;
  }

  function sendPart(id: string, index: number, bytes: Buffer, token = staff.token) {
    return fetch(`${server.api}/admin/releases/${id}/parts/${index}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      body: bytes,
    });
  }

  /** A draft declares the size of its file: parts past its end are refused. */
  async function createDraft(version: string, size: number, channel = 'stable', token = staff.token) {
    const created = await call<{ data: Release }>(
      'POST',
      '/admin/releases',
      { version, channel, notes: `Notes de ${version}`, fileName: `bot-agent-${version}.zip`, size },
      token,
    );
    expect(created.status).toBe(201);
    return created.body.data;
  }

  /** Creates, uploads and publishes a build the way the admin page does. */
  async function publish(version: string, file: Buffer, channel = 'stable'): Promise<Release> {
    const draft = await createDraft(version, file.length, channel);
    const parts = partsOf(file);
    for (const [index, part] of parts.entries())
      expect((await sendPart(draft.id, index, part)).status).toBe(204);
    const published = await call<{ data: Release }>(
      'POST',
      `/admin/releases/${draft.id}/publish`,
      { parts: parts.length, sha256: sha256(file) },
      staff.token,
    );
    expect(published.status).toBe(200);
    return published.body.data;
  }

  async function latestFor(token: string, channel = 'stable') {
    return call<{ data: { release: Release; download: { url: string; expiresAt: string } } | null }>(
      'GET',
      `/releases/latest?channel=${channel}`,
      undefined,
      token,
    );
  }

  const download = (url: string, headers: Record<string, string> = {}) =>
    fetch(`${server.api}${url}`, { headers });

  return {
    get server() {
      return server;
    },
    get call() {
      return call;
    },
    get staff() {
      return staff;
    },
    get customer() {
      return customer;
    },
    sha256,
    partsOf,
    sendPart,
    createDraft,
    publish,
    latestFor,
    download,
  };
}
