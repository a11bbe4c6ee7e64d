import { randomBytes } from 'node:crypto';
import { RELEASE_DRAFTS_PER_STAFF, RELEASE_PART_BYTES, type Release } from '@bot/contracts';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { apiClient, TestServer, TestUser } from '../../../test/harness.ts';
import { rawGet } from '../../../test/raw-http.ts';
import { releasesSuite } from '../../../test/releases-suite.ts';
import { downloadLink } from './release-downloads.ts';
import { expireStaleDrafts } from './releases.service.ts';
import { agentReleaseParts, agentReleases } from './releases.table.ts';

const suite = releasesSuite();
const { sha256, sendPart, createDraft, publish } = suite;
let server: TestServer;
let call: ReturnType<typeof apiClient>;
let staff: TestUser;
beforeAll(() => {
  ({ server, call, staff } = suite);
});

const get = (url: string, headers: Record<string, string>) => rawGet(`${server.api}${url}`, headers);

describe('a build is sent as its stored bytes', () => {
  // Very compressible, so that compressing it on the fly would show.
  const file = Buffer.from('MZ bot agent '.repeat(Math.ceil((RELEASE_PART_BYTES + 5000) / 13)));
  let release: Release;
  let url: string;
  const browser = { 'accept-encoding': 'gzip, deflate, br, zstd' };

  beforeAll(async () => {
    release = await publish('3.0.0', file);
    url = downloadLink(server.ctx, release.id).url;
  });

  it('with Content-Length, its SHA-256 as ETag and Accept-Ranges, never compressed on the fly', async () => {
    const whole = await get(url, browser);
    expect(whole.status).toBe(200);
    expect(whole.headers['content-encoding']).toBeUndefined();
    expect(whole.headers['transfer-encoding']).toBeUndefined();
    expect(whole.headers['content-length']).toBe(String(file.length));
    expect(whole.headers.etag).toBe(`"${sha256(file)}"`);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.body.equals(file)).toBe(true);

    const range = await get(url, { ...browser, range: 'bytes=100-299' });
    expect(range.status).toBe(206);
    expect(range.headers['content-encoding']).toBeUndefined();
    expect(range.headers['content-length']).toBe('200');
    expect(range.body.equals(file.subarray(100, 300))).toBe(true);
  });

  it('answers If-None-Match with the current ETag by 304, and If-Range with another by the whole file', async () => {
    const downloadsOf = async () =>
      (await call<{ data: Release[] }>('GET', '/admin/releases', undefined, staff.token)).body.data.find(
        (row) => row.id === release.id,
      )!.downloads;
    const before = await downloadsOf();
    const etag = `"${sha256(file)}"`;

    for (const validator of [etag, `W/${etag}`, `"autre", ${etag}`, '*']) {
      const notModified = await get(url, { ...browser, 'if-none-match': validator });
      expect(notModified.status, validator).toBe(304);
      expect(notModified.headers.etag).toBe(etag);
      expect(notModified.headers['content-length']).toBeUndefined();
      expect(notModified.body.length).toBe(0);
    }
    expect(await downloadsOf()).toBe(before); // nothing was sent
    const changed = await get(url, { ...browser, 'if-none-match': `"${'0'.repeat(64)}"` });
    expect(changed.status).toBe(200);
    expect(changed.body.equals(file)).toBe(true);

    const resumed = await get(url, { ...browser, range: 'bytes=1000-', 'if-range': etag });
    expect(resumed.status).toBe(206);
    expect(resumed.body.equals(file.subarray(1000))).toBe(true);
    // Another validator (another build, a weak tag, a date): the range is ignored, the whole file sent.
    for (const validator of [`"${'0'.repeat(64)}"`, `W/${etag}`, new Date().toUTCString()]) {
      const restarted = await get(url, { ...browser, range: 'bytes=1000-', 'if-range': validator });
      expect(restarted.status, validator).toBe(200);
      expect(restarted.headers['content-range']).toBeUndefined();
      expect(restarted.headers['content-length']).toBe(String(file.length));
      expect(restarted.body.equals(file)).toBe(true);
    }
  });
});

describe('drafts', () => {
  it(`are capped at ${RELEASE_DRAFTS_PER_STAFF} per staff member, published ones not counted`, async () => {
    const author = await server.createUser({ permissions: ['can_manageSettings'] });
    const other = await server.createUser({ permissions: ['can_manageSettings'] });
    const drafts: Release[] = [];
    for (let i = 0; i < RELEASE_DRAFTS_PER_STAFF; i += 1)
      drafts.push(await createDraft(`4.0.${i}`, 10, 'stable', author.token));
    const refused = await call(
      'POST',
      '/admin/releases',
      { version: '4.1.0', channel: 'stable', fileName: 'a.zip', size: 10 },
      author.token,
    );
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      code: 'RELEASE_DRAFTS_LIMIT',
      error: `Vous avez déjà ${RELEASE_DRAFTS_PER_STAFF} brouillons de version en cours : publiez-en ou retirez-en un avant d’en commencer un autre.`,
    });
    await createDraft('4.1.1', 10, 'stable', other.token); // each staff member has their own

    // Publishing one frees its place.
    const bytes = randomBytes(10);
    expect((await sendPart(drafts[0]!.id, 0, bytes, author.token)).status).toBe(204);
    const published = await call(
      'POST',
      `/admin/releases/${drafts[0]!.id}/publish`,
      { parts: 1, sha256: sha256(bytes) },
      author.token,
    );
    expect(published.status).toBe(200);
    await createDraft('4.1.2', 10, 'stable', author.token);
  });

  it('expire 24 hours after they were started, with their parts, and the removal is audited', async () => {
    const author = await server.createUser({ permissions: ['can_manageSettings'] });
    const old = await createDraft('5.0.0', 10, 'stable', author.token);
    const recent = await createDraft('5.0.1', 10, 'stable', author.token);
    expect((await sendPart(old.id, 0, randomBytes(10), author.token)).status).toBe(204);
    const { db } = server.ctx;
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
    await db
      .update(agentReleases)
      .set({ createdAt: hoursAgo(24.1) })
      .where(eq(agentReleases.id, old.id));
    await db
      .update(agentReleases)
      .set({ createdAt: hoursAgo(23.9) })
      .where(eq(agentReleases.id, recent.id));

    expect(await expireStaleDrafts(server.ctx)).toBe(1);
    const listed = await call<{ data: Release[] }>('GET', '/admin/releases', undefined, staff.token);
    expect(listed.body.data.map((row) => row.id)).not.toContain(old.id);
    expect(listed.body.data.map((row) => row.id)).toContain(recent.id);
    const parts = await db.select().from(agentReleaseParts).where(eq(agentReleaseParts.releaseId, old.id));
    expect(parts).toEqual([]);
    expect((await sendPart(old.id, 0, randomBytes(10), author.token)).status).toBe(404);

    const audit = await call<{ data: { action: string; targetLabel: string | null }[] }>(
      'GET',
      '/admin/audit?targetType=release&pageSize=100',
      undefined,
      (await server.createUser({ permissions: ['can_manageAudit'] })).token,
    );
    expect(
      audit.body.data.filter((entry) => entry.targetLabel === '5.0.0 (stable)').map((e) => e.action),
    ).toEqual(['release.expire', 'release.create']);
  });

  it('a new draft does not wait for the sweep: an expired one neither counts nor keeps its version', async () => {
    const author = await server.createUser({ permissions: ['can_manageSettings'] });
    const drafts: Release[] = [];
    for (let i = 0; i < RELEASE_DRAFTS_PER_STAFF; i += 1)
      drafts.push(await createDraft(`6.0.${i}`, 10, 'stable', author.token));
    await server.ctx.db
      .update(agentReleases)
      .set({ createdAt: new Date(Date.now() - 25 * 3_600_000) })
      .where(eq(agentReleases.id, drafts[0]!.id));
    await createDraft('6.0.0', 10, 'stable', author.token);
  });
});
