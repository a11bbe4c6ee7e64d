import { createHash } from 'node:crypto';
import { BOT_PERMISSIONS, type BotPermission, LEASE_TYPE, type LeaseClaims } from '@bot/contracts';
import { SignJWT } from 'jose';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { findPermissionEnds } from '../access/index.ts';
import { listSubscriptions } from '../orders/index.ts';
import { getSettings } from '../settings/index.ts';
import { listWhitelistedAccountNames } from '../whitelist/index.ts';
import { currentSigner } from './signing-keys.service.ts';

/** What a lease holds besides its times (docs/licensing.md). */
export type LeaseContent = Omit<LeaseClaims, 'iat' | 'exp'>;

/** The hwid as a lease carries it: its SHA-256, lower-case hex (the raw id never leaves the agent's PC). */
const hwidHash = (hwid: string): string => createHash('sha256').update(hwid, 'utf8').digest('hex');

/**
 * Signs a lease with the key in service: a compact JWS (EdDSA/Ed25519) whose header names the key
 * (`kid`) and the type (`bot-lease+jwt`). `issuedAt` and `expiresAt` are given by the caller.
 */
export async function signLease(
  ctx: AppContext,
  input: { content: LeaseContent; issuedAt: Date; expiresAt: Date },
): Promise<string> {
  const signer = await currentSigner(ctx);
  return new SignJWT({ ...input.content })
    .setProtectedHeader({ alg: 'EdDSA', kid: signer.kid, typ: LEASE_TYPE })
    .setIssuedAt(Math.floor(input.issuedAt.getTime() / 1000))
    .setExpirationTime(Math.floor(input.expiresAt.getTime() / 1000))
    .sign(signer.privateKey);
}

/** A lease for a user's bot on one PC, from what the platform knows now; refused when it would entitle nothing. */
export async function issueLease(
  ctx: AppContext,
  input: { userId: string; hwid: string; agentHwid?: string | null },
): Promise<string> {
  const { leaseLifetimeHours, leaseGraceHours, minBotVersion } = await getSettings(ctx);
  const [ends, subscriptions, accounts] = await Promise.all([
    findPermissionEnds(ctx, input.userId, BOT_PERMISSIONS),
    listSubscriptions(ctx, input.userId),
    listWhitelistedAccountNames(ctx, input.userId),
  ]);
  // A lease entitling nothing is no lease (an entitlement may end between the checks and here).
  if (ends.size === 0) throw new AppError('BOT_PERMISSION_REQUIRED');
  const issuedAt = new Date();
  const { expiresAt, graceSeconds } = leaseTimes({
    issuedAt,
    lifetimeMs: leaseLifetimeHours * 3_600_000,
    graceMs: leaseGraceHours * 3_600_000,
    ends: [...ends.values()],
  });
  return signLease(ctx, {
    issuedAt,
    expiresAt,
    content: {
      sub: input.userId,
      hwid: hwidHash(input.hwid),
      // The PC recognised under another hwid: the agent takes the bound one only with its own beside it.
      ...(input.agentHwid && input.agentHwid !== input.hwid ? { agentHwid: hwidHash(input.agentHwid) } : {}),
      packages: subscriptions.map(({ packageId, packageName, endsAt }) => ({
        id: packageId,
        name: packageName,
        endsAt,
      })),
      entitlements: [...ends.keys()] as BotPermission[],
      entitlementEnds: Object.fromEntries(
        [...ends].map(([name, end]) => [name, end?.toISOString() ?? null]),
      ) as LeaseContent['entitlementEnds'],
      accounts,
      grace: graceSeconds,
      minVersion: minBotVersion,
    },
  });
}

/**
 * A lease's expiry and grace: the settings' lifetime, but `exp + grace` never past the latest end
 * of what it entitles (a package ending in two minutes gives two minutes, not 48 h). An entitlement
 * without an end (a role, an administrator) keeps the full lifetime. Times are whole seconds (JWT).
 */
export function leaseTimes(input: {
  issuedAt: Date;
  lifetimeMs: number;
  graceMs: number;
  ends: readonly (Date | null)[];
}): { expiresAt: Date; graceSeconds: number } {
  const issued = Math.floor(input.issuedAt.getTime() / 1000) * 1000;
  const full = { expiresAt: new Date(issued + input.lifetimeMs), graceSeconds: input.graceMs / 1000 };
  if (input.ends.length === 0 || input.ends.includes(null)) return full;
  const latestEnd = Math.max(...input.ends.map((end) => Math.floor(end!.getTime() / 1000) * 1000));
  const expiresAt = Math.max(issued + 1000, Math.min(issued + input.lifetimeMs, latestEnd));
  const graceMs = Math.max(0, Math.min(input.graceMs, latestEnd - expiresAt));
  return { expiresAt: new Date(expiresAt), graceSeconds: Math.floor(graceMs / 1000) };
}
