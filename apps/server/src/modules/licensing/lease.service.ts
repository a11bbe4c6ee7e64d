import { createHash } from 'node:crypto';
import { BOT_PERMISSIONS, type BotPermission, LEASE_TYPE, type LeaseClaims } from '@bot/contracts';
import { SignJWT } from 'jose';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { getUserPermissions } from '../access/access.service.ts';
import { canRunBot, findBotSessionByToken, isOutdatedAgent } from '../bots/bots.service.ts';
import { listSubscriptions } from '../orders/orders.service.ts';
import { getSettings } from '../settings/settings.service.ts';
import { listWhitelistedAccountNames } from '../whitelist/whitelist.service.ts';
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

/** A lease for a user's bot on one PC, from what the platform knows now. */
export async function issueLease(ctx: AppContext, input: { userId: string; hwid: string }): Promise<string> {
  const { leaseLifetimeHours, leaseGraceHours, minBotVersion } = await getSettings(ctx);
  const [held, subscriptions, accounts] = await Promise.all([
    getUserPermissions(ctx, input.userId),
    listSubscriptions(ctx, input.userId),
    listWhitelistedAccountNames(ctx, input.userId),
  ]);
  const issuedAt = new Date();
  return signLease(ctx, {
    issuedAt,
    expiresAt: new Date(issuedAt.getTime() + leaseLifetimeHours * 3_600_000),
    content: {
      sub: input.userId,
      hwid: hwidHash(input.hwid),
      packages: subscriptions.map(({ packageId, packageName, endsAt }) => ({
        id: packageId,
        name: packageName,
        endsAt,
      })),
      entitlements: held.filter((name): name is BotPermission =>
        (BOT_PERMISSIONS as readonly string[]).includes(name),
      ),
      accounts,
      grace: leaseGraceHours * 3_600,
      minVersion: minBotVersion,
    },
  });
}

/**
 * `POST /api/bot/lease`: a fresh lease for a live bot session (the same checks as its socket: an
 * unexpired, unrevoked session for the PC still bound to a non-banned user holding a bot permission).
 */
export async function renewLease(ctx: AppContext, input: { token: string; hwid: string }): Promise<string> {
  const session = await findBotSessionByToken(ctx, input);
  if (!session) throw new AppError('BOT_SESSION_INVALID');
  const { minBotVersion } = await getSettings(ctx);
  if (isOutdatedAgent(session.version, minBotVersion)) throw new AppError('BOT_VERSION_OUTDATED');
  if (!canRunBot(await getUserPermissions(ctx, session.userId)))
    throw new AppError('BOT_PERMISSION_REQUIRED');
  return issueLease(ctx, { userId: session.userId, hwid: session.hwid });
}
