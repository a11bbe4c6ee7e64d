import { randomBytes } from 'node:crypto';
import { RELEASE_PART_BYTES, type Release } from '@bot/contracts';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { apiClient, TestServer, TestUser } from '../../../test/harness.ts';
import { releasesSuite } from '../../../test/releases-suite.ts';
import { updateSettings } from '../settings/index.ts';
import { downloadLink } from './release-downloads.ts';
import { agentReleaseParts, agentReleases } from './releases.table.ts';

const suite = releasesSuite();
const { sha256, partsOf, sendPart, createDraft, publish, latestFor, download } = suite;
let server: TestServer;
let call: ReturnType<typeof apiClient>;
let staff: TestUser;
let customer: TestUser;
beforeAll(() => {
  ({ server, call, staff, customer } = suite);
});

describe('agent releases', () => {
  // Two full parts and a short one: ranges and resumption cross part boundaries.
  const file = randomBytes(2 * RELEASE_PART_BYTES + 12_345);

  it('a build uploaded in parts is published with its SHA-256 and downloaded whole by a customer', async () => {
    const release = await publish('1.4.0', file);
    expect(release).toMatchObject({ size: file.length, sha256: sha256(file), downloads: 0 });
    expect(release.publishedAt).not.toBeNull();

    const latest = await latestFor(customer.token);
    expect(latest.status).toBe(200);
    expect(latest.body.data?.release).toMatchObject({ version: '1.4.0', sha256: sha256(file) });
    const answer = await download(latest.body.data!.download.url);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('accept-ranges')).toBe('bytes');
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename=bot-agent-1.4.0.zip');
    expect(sha256(Buffer.from(await answer.arrayBuffer()))).toBe(sha256(file));
  });

  it('answers Range requests so a broken download resumes, and counts a download once', async () => {
    const release = (await latestFor(customer.token)).body.data!;
    const downloadsOf = async () =>
      (await call<{ data: Release[] }>('GET', '/admin/releases', undefined, staff.token)).body.data.find(
        (row) => row.id === release.release.id,
      )!.downloads;
    const downloadsBefore = await downloadsOf();

    // Across the boundary of the first two parts.
    const start = RELEASE_PART_BYTES - 100;
    const middle = await download(release.download.url, { range: `bytes=${start}-${start + 199}` });
    expect(middle.status).toBe(206);
    expect(middle.headers.get('content-range')).toBe(`bytes ${start}-${start + 199}/${file.length}`);
    expect(Buffer.from(await middle.arrayBuffer()).equals(file.subarray(start, start + 200))).toBe(true);

    // A download cut after 1.5 MB resumes from there and ends with the whole file.
    const resumed = await download(release.download.url, { range: 'bytes=1500000-' });
    expect(resumed.status).toBe(206);
    const tail = Buffer.from(await resumed.arrayBuffer());
    expect(sha256(Buffer.concat([file.subarray(0, 1_500_000), tail]))).toBe(sha256(file));

    const suffix = await download(release.download.url, { range: 'bytes=-10' });
    expect(Buffer.from(await suffix.arrayBuffer()).equals(file.subarray(file.length - 10))).toBe(true);
    const lastByte = await download(release.download.url, { range: `bytes=${file.length - 1}-` });
    expect(Buffer.from(await lastByte.arrayBuffer()).equals(file.subarray(file.length - 1))).toBe(true);
    // A suffix longer than the file is the whole file (RFC 9110), an invalid range is ignored.
    const longSuffix = await download(release.download.url, { range: `bytes=-${file.length + 100}` });
    expect(longSuffix.status).toBe(200);
    expect(sha256(Buffer.from(await longSuffix.arrayBuffer()))).toBe(sha256(file));
    const invalid = await download(release.download.url, { range: 'bytes=500-10' });
    expect(invalid.status).toBe(200);
    await invalid.arrayBuffer();
    // A probe of the first byte and a HEAD are not downloads; a HEAD tells the size and no bytes.
    const probe = await download(release.download.url, { range: 'bytes=0-0' });
    expect(Buffer.from(await probe.arrayBuffer())).toEqual(file.subarray(0, 1));
    const head = await fetch(`${server.api}${release.download.url}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(file.length));
    expect((await head.arrayBuffer()).byteLength).toBe(0);

    const beyond = await download(release.download.url, { range: `bytes=${file.length + 5}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${file.length}`);
    expect(await beyond.json()).toMatchObject({ code: 'RANGE_NOT_SATISFIABLE' });

    // Ranges that do not start at the first byte continue a download; probes and HEAD look: none
    // counted. The long suffix and the ignored range sent the whole file: two downloads.
    expect(await downloadsOf()).toBe(downloadsBefore + 2);
    await (await download(release.download.url, { range: 'bytes=0-' })).arrayBuffer();
    expect(await downloadsOf()).toBe(downloadsBefore + 3);
  });

  it('refuses a tampered or expired link, and customers without an active package', async () => {
    const { release, download: link } = (await latestFor(customer.token)).body.data!;
    const signature = new URL(link.url, server.url).searchParams.get('signature') ?? '';
    const forged = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    const tampered = await download(link.url.replace(`signature=${signature}`, `signature=${forged}`));
    expect(tampered.status).toBe(403);
    expect(await tampered.json()).toMatchObject({ code: 'RELEASE_LINK_INVALID' });
    const expires = Number(new URL(link.url, server.url).searchParams.get('expires'));
    expect((await download(link.url.replace(`expires=${expires}`, `expires=${expires + 3600}`))).status).toBe(
      403,
    );

    const expired = downloadLink(server.ctx, release.id, Date.now() - 16 * 60_000);
    expect((await download(expired.url)).status).toBe(403);

    const visitor = await server.createUser();
    expect((await latestFor(visitor.token)).body).toMatchObject({ code: 'BOT_PERMISSION_REQUIRED' });
    expect((await call('GET', '/releases/latest')).status).toBe(401);
  });

  it('gives beta followers the newest of beta and stable, stable followers only stable', async () => {
    await publish('1.5.0-beta.1', randomBytes(1000), 'beta');
    expect((await latestFor(customer.token, 'beta')).body.data?.release.version).toBe('1.5.0-beta.1');
    expect((await latestFor(customer.token, 'stable')).body.data?.release.version).toBe('1.4.0');
    await publish('1.5.0', randomBytes(1000));
    // 1.5.0 is newer than 1.5.0-beta.1 (semver precedence), published on stable.
    expect((await latestFor(customer.token, 'beta')).body.data?.release.version).toBe('1.5.0');
  });

  it('publishes only a whole file whose SHA-256 matches, once', async () => {
    const big = randomBytes(RELEASE_PART_BYTES + 10);
    const draft = await createDraft('2.0.0', big.length);
    const [first, second] = partsOf(big);
    await sendPart(draft.id, 1, second!);
    const publishAs = (sha: string, parts = 2) =>
      call('POST', `/admin/releases/${draft.id}/publish`, { parts, sha256: sha }, staff.token);

    expect((await publishAs(sha256(big))).body).toMatchObject({ code: 'RELEASE_UPLOAD_INCOMPLETE' });
    // A short part where a full one belongs.
    await sendPart(draft.id, 0, first!.subarray(0, 10));
    expect((await publishAs(sha256(big))).body).toMatchObject({ code: 'RELEASE_UPLOAD_INCOMPLETE' });
    await sendPart(draft.id, 0, first!); // a retried part replaces the earlier one
    expect(await publishAs('0'.repeat(64))).toMatchObject({
      status: 422,
      body: { code: 'RELEASE_CHECKSUM_MISMATCH' },
    });
    expect((await publishAs(sha256(big))).status).toBe(200);
    expect((await publishAs(sha256(big))).body).toMatchObject({ code: 'RELEASE_ALREADY_PUBLISHED' });
    expect((await sendPart(draft.id, 0, first!)).status).toBe(409);

    expect(
      await call(
        'POST',
        '/admin/releases',
        { version: '2.0.0', channel: 'beta', fileName: 'x.zip', size: 10 },
        staff.token,
      ),
    ).toMatchObject({
      status: 409,
      body: { code: 'RELEASE_VERSION_TAKEN' },
    });
  });

  it('publishes a file of exactly two parts, and no version the server could not compare', async () => {
    const exact = randomBytes(2 * RELEASE_PART_BYTES);
    const release = await publish('2.2.0', exact);
    expect(release.size).toBe(exact.length);
    const link = downloadLink(server.ctx, release.id);
    const tail = await download(link.url, { range: `bytes=${RELEASE_PART_BYTES - 1}-` });
    expect(Buffer.from(await tail.arrayBuffer()).equals(exact.subarray(RELEASE_PART_BYTES - 1))).toBe(true);

    for (const version of ['99999999999999999999.0.0', '01.2.0', '1.2', '1.2.3+build']) {
      const refused = await call(
        'POST',
        '/admin/releases',
        { version, channel: 'stable', fileName: 'a.zip', size: 10 },
        staff.token,
      );
      expect(refused.status, version).toBe(400);
    }
    const settingsStaff = staff.token;
    for (const minBotVersion of ['01.2.0', '1.2.0-beta.1', '99999999999999999999.0.0']) {
      expect(
        (await call('PUT', '/admin/settings', { minBotVersion }, settingsStaff)).status,
        minBotVersion,
      ).toBe(400);
    }
  });

  it('refuses parts that are too big, empty or not raw bytes, telling the real limit', async () => {
    const draft = await createDraft('2.1.0', 2 * RELEASE_PART_BYTES);
    const limit = `${RELEASE_PART_BYTES / 1024 / 1024} Mio`; // 1 Mio
    const tooBig = await sendPart(draft.id, 0, randomBytes(RELEASE_PART_BYTES + 1));
    expect(tooBig.status).toBe(413);
    expect(((await tooBig.json()) as { error: string }).error).toContain(limit);
    const empty = await sendPart(draft.id, 0, Buffer.alloc(0));
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: string }).error).toContain(`${limit} au plus`);
    const json = await call('PUT', `/admin/releases/${draft.id}/parts/0`, { bytes: 'AAAA' }, staff.token);
    expect(json).toMatchObject({ status: 400, body: { code: 'RELEASE_PART_INVALID' } });
    expect(json.body.error).toContain(limit);
    expect((await sendPart(draft.id, 999, randomBytes(10))).status).toBe(400);
  });

  it('refuses parts beyond the count its declared size makes, and publishes only that size', async () => {
    const file = randomBytes(RELEASE_PART_BYTES + 100); // two parts: 0 and 1
    const draft = await createDraft('2.3.0', file.length);
    const [first, second] = partsOf(file);
    const beyond = await sendPart(draft.id, 2, randomBytes(10));
    expect(beyond.status).toBe(409);
    expect(await beyond.json()).toEqual({
      code: 'RELEASE_PART_BEYOND_END',
      error: 'Cette partie dépasse la fin du fichier annoncé : il compte 2 parties, numérotées de 0 à 1.',
      details: { parts: 2 },
    });
    const stored = await server.ctx.db
      .select({ index: agentReleaseParts.index })
      .from(agentReleaseParts)
      .where(eq(agentReleaseParts.releaseId, draft.id));
    expect(stored).toEqual([]);

    // A file shorter than declared is not whole, even with a matching SHA-256.
    expect((await sendPart(draft.id, 0, first!)).status).toBe(204);
    expect((await sendPart(draft.id, 1, second!.subarray(0, 50))).status).toBe(204);
    const short = Buffer.concat([first!, second!.subarray(0, 50)]);
    const publishAs = (parts: number, sha: string) =>
      call('POST', `/admin/releases/${draft.id}/publish`, { parts, sha256: sha }, staff.token);
    expect(await publishAs(2, sha256(short))).toMatchObject({
      status: 409,
      body: { code: 'RELEASE_UPLOAD_INCOMPLETE' },
    });
    expect((await sendPart(draft.id, 1, second!)).status).toBe(204);
    expect((await publishAs(2, sha256(file))).status).toBe(200);

    const tooLarge = await call(
      'POST',
      '/admin/releases',
      { version: '2.3.1', channel: 'stable', fileName: 'a.zip', size: 512 * RELEASE_PART_BYTES + 1 },
      staff.token,
    );
    expect(tooLarge.status).toBe(400);
  });

  it('file names lose control and bidi characters and path separators', async () => {
    const created = await call<{ data: Release }>(
      'POST',
      '/admin/releases',
      {
        version: '2.4.0',
        channel: 'stable',
        // A right-to-left override makes "bot-agent{U+202E}piz.exe" read as "bot-agentexe.zip".
        fileName: '..\\../bot\t-agent\u202e\u200bpiz.exe\u0007',
        size: 10,
      },
      staff.token,
    );
    expect(created.status).toBe(201);
    expect(created.body.data.fileName).toBe('....bot-agentpiz.exe');
    for (const fileName of ['\u202e', '/\\', ' \u0007 ']) {
      const refused = await call(
        'POST',
        '/admin/releases',
        { version: '2.4.1', channel: 'stable', fileName, size: 10 },
        staff.token,
      );
      expect(refused.status, JSON.stringify(fileName)).toBe(400);
    }
    // A name stored before this rule is cleaned when it is sent to a customer.
    const file = randomBytes(64);
    const release = await publish('2.4.2', file);
    await server.ctx.db
      .update(agentReleases)
      .set({ fileName: 'evil\u202Eexe.zip' })
      .where(eq(agentReleases.id, release.id));
    const answer = await download(downloadLink(server.ctx, release.id).url);
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename=evilexe.zip');
    await answer.arrayBuffer();
  });

  it('is staff work: customers cannot publish, every change is audited, withdrawal removes the file', async () => {
    expect((await call('GET', '/admin/releases', undefined, customer.token)).status).toBe(403);
    const someId = '00000000-0000-4000-8000-000000000000';
    expect(
      (
        await call(
          'POST',
          '/admin/releases',
          { version: '5.0.0', channel: 'stable', fileName: 'a.zip' },
          customer.token,
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await call(
          'POST',
          `/admin/releases/${someId}/publish`,
          { parts: 1, sha256: '0'.repeat(64) },
          customer.token,
        )
      ).status,
    ).toBe(403);
    expect((await call('DELETE', `/admin/releases/${someId}`, undefined, customer.token)).status).toBe(403);
    expect(
      (await sendPart('00000000-0000-4000-8000-000000000000', 0, randomBytes(10), customer.token)).status,
    ).toBe(403);
    const release = await publish('0.9.0', randomBytes(500));
    const link = downloadLink(server.ctx, release.id);
    expect((await call('DELETE', `/admin/releases/${release.id}`, undefined, staff.token)).status).toBe(204);
    expect((await download(link.url)).status).toBe(404);

    const audit = await call<{ data: { action: string; targetLabel: string | null }[] }>(
      'GET',
      '/admin/audit?targetType=release&pageSize=100',
      undefined,
      (await server.createUser({ permissions: ['can_manageAudit'] })).token,
    );
    const about090 = audit.body.data.filter((entry) => entry.targetLabel === '0.9.0 (stable)');
    expect(about090.map((entry) => entry.action).sort()).toEqual([
      'release.create',
      'release.delete',
      'release.publish',
    ]);
  });
});

describe('agents and the minimum version', () => {
  async function openSession(version: string, channel?: string) {
    const owner = await server.createUser({ permissions: ['can_useTreasure'] });
    const key = await call<{ data: { accessKey: string } }>('GET', '/me/bot-key', undefined, owner.token);
    return call<{ update: unknown; code?: string; error?: string }>('POST', '/bot/sessions', {
      accessKey: key.body.data.accessKey,
      hwid: `HWID-${randomBytes(6).toString('hex')}`,
      version,
      ...(channel ? { channel } : {}),
    });
  }

  it('tells an agent a newer build of its channel exists', async () => {
    const newest = (await latestFor(customer.token)).body.data!.release.version;
    expect((await openSession('1.0.0')).body.update).toMatchObject({
      version: newest,
      channel: 'stable',
      pageUrl: expect.stringMatching(/\/started$/),
    });
    expect((await openSession('9.0.0')).body.update).toBeNull();
    expect((await openSession(newest, 'beta')).body.update).toBeNull();
    expect((await openSession('1.5.0-beta.1', 'beta')).body.update).toMatchObject({ version: newest });
  });

  it('refuses an agent below the minimum version with a French message and where to download', async () => {
    await updateSettings(server.ctx, {
      patch: { minBotVersion: '1.5.0' },
      actor: { id: null, username: 'test', ip: null },
    });
    try {
      const old = await openSession('1.4.9');
      expect(old.status).toBe(426);
      expect(old.body.code).toBe('BOT_VERSION_OUTDATED');
      expect(old.body.error).toContain('minimum 1.5.0');
      expect(old.body.error).toContain(`${server.ctx.config.publicUrl}/started`);
      // A pre-release of the minimum comes before it (semver): refused too.
      expect((await openSession('1.5.0-beta.1')).status).toBe(426);
      expect((await openSession('1.5.0')).status).toBe(201);
    } finally {
      await updateSettings(server.ctx, {
        patch: { minBotVersion: '0.0.0' },
        actor: { id: null, username: 'test', ip: null },
      });
    }
  });
});
