import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { Readable } from 'node:stream';
import { cleanFileName, RELEASE_LINK_TTL_MS, RELEASE_PART_BYTES, type Release } from '@bot/contracts';
import { create as contentDisposition } from 'content-disposition';
import type { FastifyReply, FastifyRequest } from 'fastify';
import parseRange from 'range-parser';
import type { AppContext } from '../../context.ts';
import { readParts } from './releases.service.ts';

/**
 * Download links are signed, not stored: any node checks one with the shared sealing key, and a
 * link copied out of the customer's session stops working after `RELEASE_LINK_TTL_MS`.
 */
function linkSignature(ctx: AppContext, releaseId: string, expires: number): string {
  // A key of its own, derived from the shared one: the sealing key itself only seals.
  const key = Buffer.from(hkdfSync('sha256', ctx.sealingKey, '', 'agent-release-links', 32));
  return createHmac('sha256', key)
    .update(`agent-release-download:${releaseId}:${expires}`)
    .digest('base64url');
}

export function downloadLink(
  ctx: AppContext,
  releaseId: string,
  now = Date.now(),
  ttlMs = RELEASE_LINK_TTL_MS,
): { url: string; expiresAt: string } {
  const expires = Math.floor((now + ttlMs) / 1000);
  const signature = linkSignature(ctx, releaseId, expires);
  return {
    url: `/releases/${releaseId}/download?expires=${expires}&signature=${signature}`,
    expiresAt: new Date(expires * 1000).toISOString(),
  };
}

export function isValidDownloadLink(
  ctx: AppContext,
  link: { releaseId: string; expires: number; signature: string },
): boolean {
  if (link.expires * 1000 < Date.now()) return false;
  const expected = Buffer.from(linkSignature(ctx, link.releaseId, link.expires));
  const given = Buffer.from(link.signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * If-None-Match (RFC 9110 section 13.1.2): the client holds this very file when one of its tags
 * matches ours by the weak comparison (a `W/` prefix ignored) or it sends `*`. Answered 304.
 */
export function isNotModified(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * The Range header to honour. With If-Range (RFC 9110 section 13.1.5) only when it names our ETag
 * exactly (strong comparison): a weak tag, another build's tag or a date means the client's partial
 * copy may be of another file, so it gets the whole file rather than a piece to splice in.
 */
export function rangeToHonour(headers: FastifyRequest['headers'], etag: string): string | undefined {
  const ifRange = headers['if-range'];
  if (ifRange === undefined) return headers.range;
  return typeof ifRange === 'string' && ifRange.trim() === etag ? headers.range : undefined;
}

export type ByteRange = { start: number; end: number; partial: boolean };

/**
 * The bytes a request asks for (RFC 9110 section 14): one range, or the whole file when there is
 * no Range header or one the server may ignore (malformed, several ranges).
 */
export function requestedRange(size: number, header: string | undefined): ByteRange | 'unsatisfiable' {
  const whole = { start: 0, end: size - 1, partial: false };
  if (!header) return whole;
  const ranges = parseRange(size, header, { combine: true });
  if (ranges === -1) return startsPastTheEnd(size, header) ? 'unsatisfiable' : whole;
  if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) return whole;
  const [range] = ranges;
  return { start: range!.start, end: range!.end, partial: true };
}

/**
 * Only a range starting past the end is unsatisfiable: a suffix longer than the file means the whole
 * file (RFC 9110 section 14.1.3) and an invalid range (`bytes=5-1`) may be ignored.
 */
function startsPastTheEnd(size: number, header: string): boolean {
  const first = /^bytes=(\d+)-/.exec(header.trim());
  return first !== null && Number(first[1]) >= size;
}

/** Bytes `start..end` (inclusive) of a release's file, reading only the parts they fall in. */
export async function* releaseBytes(
  ctx: AppContext,
  releaseId: string,
  range: { start: number; end: number },
): AsyncGenerator<Buffer> {
  const first = Math.floor(range.start / RELEASE_PART_BYTES);
  const last = Math.floor(range.end / RELEASE_PART_BYTES);
  let offset = first * RELEASE_PART_BYTES;
  for await (const part of readParts(ctx, releaseId, first, last)) {
    yield part.subarray(Math.max(range.start - offset, 0), Math.min(range.end - offset + 1, part.length));
    offset += part.length;
  }
}

/**
 * Sends the file (or the range) as it is read. The first part is read before anything is sent: a
 * failing query (an outage) is then answered like any other request, not by a half-sent file.
 */
export async function sendReleaseFile(
  reply: FastifyReply,
  input: { release: Release; range: ByteRange; bytes: AsyncGenerator<Buffer> },
): Promise<FastifyReply> {
  const { release, range } = input;
  if (range.partial) {
    reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${release.size}`);
  }
  reply
    .header('content-type', 'application/octet-stream')
    .header('content-length', range.end - range.start + 1)
    // Cleaned again: a name stored before control and bidi characters were removed at creation.
    .header('content-disposition', contentDisposition(cleanFileName(release.fileName) || 'bot-agent'))
    .header('cache-control', 'private, no-transform');
  // A HEAD (download managers ask first) reads nothing from the database. An empty stream, because
  // Fastify's HEAD handling would set content-length to 0 for an empty payload.
  if (reply.request.method === 'HEAD') return reply.send(Readable.from([]));
  const first = await input.bytes.next();
  async function* rest(): AsyncGenerator<Buffer> {
    if (!first.done) yield first.value;
    yield* input.bytes;
  }
  return reply.send(Readable.from(rest()));
}
