import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { SDK_PATH, type SdkPackage, sdkTarballName } from '@bot/contracts';
import { AppError } from '../../core/errors.ts';

/** What `npm run build` leaves in the SDK's dist/ (apps/bot-agent/scripts/build.mjs). */
const SDK_TARBALL = 'bot-sdk.tgz';
/** A checkout nobody built: the operator is told what to run (the image always has it). */
const NOT_BUILT = () =>
  new AppError('SERVICE_UNAVAILABLE', {
    details: { failing: ['SDK des bots non construit (npm run build)'] },
  });
const TAR_BLOCK = 512;

export interface BuiltSdk {
  answer: SdkPackage;
  bytes: Buffer;
}

/**
 * The SDK's tarball and what the platform announces of it. The version is read from inside the
 * tarball, so the announcement cannot name another build than the one served.
 */
export async function readBuiltSdk(distDir: string): Promise<BuiltSdk> {
  const bytes = await readFile(path.join(distDir, SDK_TARBALL)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw NOT_BUILT();
    throw error;
  });
  const { version } = JSON.parse(packedFile(bytes, 'package/package.json')) as { version: string };
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return {
    bytes,
    answer: { version, sha256, size: bytes.length, url: `${SDK_PATH}/${sdkTarballName(version)}` },
  };
}

/** One file of an npm tarball: a gzipped tar, each file a 512-byte header then its blocks. */
function packedFile(tarball: Buffer, name: string): string {
  const tar = gunzipSync(tarball);
  const field = (at: number, length: number) => tar.toString('utf8', at, at + length).replace(/\0.*$/s, '');
  for (let offset = 0; offset + TAR_BLOCK <= tar.length; ) {
    const entry = field(offset, 100);
    const size = Number.parseInt(field(offset + 124, 12).trim(), 8);
    if (!entry || Number.isNaN(size)) break;
    const start = offset + TAR_BLOCK;
    if (entry === name) return tar.toString('utf8', start, start + size);
    offset = start + Math.ceil(size / TAR_BLOCK) * TAR_BLOCK;
  }
  throw NOT_BUILT();
}
