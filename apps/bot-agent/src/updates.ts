import { createHash } from 'node:crypto';
import {
  type AgentUpdate,
  type PublicJwks,
  RELEASE_MANIFEST_TYPE,
  type ReleaseManifest,
  releaseManifestSchema,
} from '@bot/contracts';
import { compactVerify, createLocalJWKSet, decodeProtectedHeader, errors as joseErrors } from 'jose';
import { assertSecureUrl } from './trust.ts';

/** Why an update was refused: its manifest, or the bytes downloaded against it. */
export type UpdateRefusal =
  | 'MANIFEST_MISSING'
  | 'MANIFEST_INVALID'
  | 'MANIFEST_KEY_UNKNOWN'
  | 'MANIFEST_EXPIRED'
  | 'MANIFEST_OLDER'
  | 'MANIFEST_INSECURE_URL'
  | 'UPDATE_SIZE_MISMATCH'
  | 'UPDATE_CHECKSUM_MISMATCH'
  | 'UPDATE_DOWNLOAD_FAILED';

export class UpdateError extends Error {
  constructor(readonly code: UpdateRefusal) {
    super(`Mise à jour refusée : ${code}`);
    this.name = 'UpdateError';
  }
}

/** An update the platform offered, its manifest verified: what the agent may install. */
export interface VerifiedUpdate extends AgentUpdate {
  /** The verified content of `manifest` (version, size, SHA-256, address...). */
  verified: ReleaseManifest;
}

export interface UpdateDeps {
  /** The keys the agent trusts (those of purpose `release` verify manifests). */
  keys: () => PublicJwks | Promise<PublicJwks>;
  /** Fetches the signed key set again (a manifest signed by a key not known yet). */
  refreshKeys: () => Promise<unknown>;
  now: () => number;
  /** The version this agent runs: an older manifest is refused unless a signed rollback names it. */
  runningVersion: string;
  /** The highest version it trusted before (stored between runs); nothing older is taken. */
  highestTrustedVersion?: string;
  /** Told each time the highest trusted version rises (to store it). */
  onTrustedVersion?: (version: string) => void;
  /** Accept a plain `http://` download address to another machine (default: refused). */
  allowInsecureHttp?: boolean;
  /** `POST /api/bot/update-deferral` with the session (the SDK's client supplies it). */
  defer: (version: string, minutes: number) => Promise<{ until: string }>;
}

/** The keys that sign release manifests (a lease key never does, decision 910). */
function releaseKeys(keys: PublicJwks): PublicJwks {
  return { keys: keys.keys.filter((key) => key.purpose === 'release') };
}

/**
 * The agent's side of updates (decision 910): an offer is kept only once its manifest verifies
 * against the platform's release keys; a download is handed over only when its bytes have the
 * manifest's size and SHA-256; an agent may put an update off, and staff see it.
 */
export class AgentUpdates {
  private offered: VerifiedUpdate | null = null;
  private highest: string;

  constructor(private readonly deps: UpdateDeps) {
    const { highestTrustedVersion: stored, runningVersion } = deps;
    this.highest = stored && compareVersions(stored, runningVersion) > 0 ? stored : runningVersion;
  }

  /** The highest version this agent trusted (the running one at least). */
  get highestTrustedVersion(): string {
    return this.highest;
  }

  get current(): VerifiedUpdate | null {
    return this.offered;
  }

  /** Verifies an offer; answers it once verified (the one kept), or throws why it was refused. */
  async accept(update: AgentUpdate): Promise<VerifiedUpdate> {
    if (!update.manifest) throw new UpdateError('MANIFEST_MISSING');
    const manifest = await this.verify(update.manifest);
    if (manifest.version !== update.version) throw new UpdateError('MANIFEST_INVALID');
    // Never backwards (a replayed manifest of an old, vulnerable build) unless the platform signed a
    // rollback away from the very version running here (decision 912).
    const isOlder =
      compareVersions(manifest.version, this.deps.runningVersion) < 0 ||
      compareVersions(manifest.version, this.highest) < 0;
    const isSignedRollback = manifest.rollback && manifest.rollbackFrom === this.deps.runningVersion;
    if (isOlder && !isSignedRollback) throw new UpdateError('MANIFEST_OLDER');
    try {
      assertSecureUrl(manifest.url, this.deps.allowInsecureHttp);
    } catch {
      throw new UpdateError('MANIFEST_INSECURE_URL');
    }
    if (!manifest.rollback && compareVersions(manifest.version, this.highest) > 0) {
      this.highest = manifest.version;
      this.deps.onTrustedVersion?.(manifest.version);
    }
    // What the agent acts on comes from the signed manifest, never from the offer around it (only
    // the release notes are not signed: text to show).
    const { version, channel, rollback, pageUrl } = manifest;
    this.offered = { ...update, version, channel, rollback, pageUrl, verified: manifest };
    return this.offered;
  }

  /** The build's bytes, checked against the verified manifest (never the unchecked offer). */
  async download(): Promise<Buffer> {
    const manifest = this.offered?.verified;
    if (!manifest) throw new UpdateError('MANIFEST_MISSING');
    const response = await fetch(manifest.url, { signal: AbortSignal.timeout(10 * 60_000) }).catch(
      () => undefined,
    );
    if (!response?.ok) throw new UpdateError('UPDATE_DOWNLOAD_FAILED');
    const bytes = Buffer.from(await response.arrayBuffer());
    if (bytes.length !== manifest.size) throw new UpdateError('UPDATE_SIZE_MISMATCH');
    if (createHash('sha256').update(bytes).digest('hex') !== manifest.sha256)
      throw new UpdateError('UPDATE_CHECKSUM_MISMATCH');
    return bytes;
  }

  /** "Pas maintenant": the platform records until when (staff see it on the releases page). */
  defer(minutes: number): Promise<{ until: string }> {
    const version = this.offered?.version;
    if (!version) return Promise.reject(new UpdateError('MANIFEST_MISSING'));
    return this.deps.defer(version, minutes);
  }

  private async verify(token: string): Promise<ReleaseManifest> {
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      throw new UpdateError('MANIFEST_INVALID');
    }
    const known = async () => releaseKeys(await this.deps.keys()).keys.some((key) => key.kid === kid);
    if (!(await known())) await this.deps.refreshKeys().catch(() => undefined);
    if (!kid || !(await known())) throw new UpdateError('MANIFEST_KEY_UNKNOWN');
    let payload: Uint8Array;
    try {
      const verified = await compactVerify(token, createLocalJWKSet(releaseKeys(await this.deps.keys())), {
        algorithms: ['EdDSA'],
      });
      if (verified.protectedHeader.typ !== RELEASE_MANIFEST_TYPE) throw new UpdateError('MANIFEST_INVALID');
      payload = verified.payload;
    } catch (error) {
      if (error instanceof UpdateError) throw error;
      if (error instanceof joseErrors.JWKSNoMatchingKey) throw new UpdateError('MANIFEST_KEY_UNKNOWN');
      throw new UpdateError('MANIFEST_INVALID');
    }
    const claims = parseClaims(payload);
    if (claims.exp * 1000 <= this.deps.now()) throw new UpdateError('MANIFEST_EXPIRED');
    return claims.manifest;
  }
}

function parseClaims(payload: Uint8Array): { exp: number; manifest: ReleaseManifest } {
  try {
    const claims = JSON.parse(new TextDecoder().decode(payload)) as { exp?: unknown };
    const manifest = releaseManifestSchema.parse(claims);
    if (typeof claims.exp !== 'number') throw new Error('no expiry');
    return { exp: claims.exp, manifest };
  } catch {
    throw new UpdateError('MANIFEST_INVALID');
  }
}

/**
 * Compares two semver versions (`1.4.0`, `1.5.0-beta.1`): negative when `a` is older. A pre-release
 * is older than its release; pre-release parts compare numerically when both are numbers.
 */
export function compareVersions(a: string, b: string): number {
  const [coreA = '', preA] = splitVersion(a);
  const [coreB = '', preB] = splitVersion(b);
  const byCore = compareParts(coreA.split('.'), coreB.split('.'));
  if (byCore !== 0) return byCore;
  if (preA === undefined || preB === undefined)
    return (preA === undefined ? 1 : 0) - (preB === undefined ? 1 : 0);
  return compareParts(preA.split('.'), preB.split('.'));
}

function splitVersion(version: string): [string, string | undefined] {
  const bare = version.trim().replace(/^v/, '').split('+')[0] ?? '';
  const dash = bare.indexOf('-');
  return dash < 0 ? [bare, undefined] : [bare.slice(0, dash), bare.slice(dash + 1)];
}

function compareParts(a: string[], b: string[]): number {
  for (let index = 0; index < Math.max(a.length, b.length); index += 1) {
    const left = a[index];
    const right = b[index];
    if (left === undefined || right === undefined) return left === undefined ? -1 : 1;
    const isNumeric = /^\d+$/.test(left) && /^\d+$/.test(right);
    const order = isNumeric ? Number(left) - Number(right) : left.localeCompare(right);
    if (order !== 0) return Math.sign(order);
  }
  return 0;
}
