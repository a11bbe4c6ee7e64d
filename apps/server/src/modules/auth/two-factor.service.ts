import { randomInt } from 'node:crypto';
import {
  APP_NAME,
  isStaffPermission,
  TWO_FACTOR_RECOVERY_CODE_COUNT,
  type TwoFactorSetup,
  type TwoFactorStatus,
} from '@bot/contracts';
import { and, count, eq, isNotNull, isNull } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { type AppContext, inTransaction } from '../../context.ts';
import { rateLimitAddress } from '../../core/client-address.ts';
import { AppError } from '../../core/errors.ts';
import type { AuthenticatedSession } from '../../core/guards.ts';
import { hashSecret, newId } from '../../core/ids.ts';
import { verifyPassword } from '../../core/passwords.ts';
import { reseal, seal, unseal } from '../../core/sealing.ts';
import { getUserPermissions } from '../access/index.ts';
import { type AuditActor, recordRefusedAttempt, writeAudit } from '../audit/index.ts';
import { getSettings } from '../settings/index.ts';
import { getUserById } from '../users/index.ts';
import { mailSecurityNotice } from './security-mails.ts';
import { markSecondFactorPassed, revokeSessions } from './sessions.service.ts';
import { sessions } from './sessions.table.ts';
import { twoFactor, twoFactorRecoveryCodes } from './two-factor.table.ts';

/** RFC 6238 defaults, the ones every authenticator app reads from the QR code. */
const PERIOD_SECONDS = 30;
/** The step before and after are accepted too: phone clocks drift (RFC 6238 section 5.2). */
const ACCEPTED_DRIFT_STEPS = 1;
/** No 0/o, 1/l/i: recovery codes are read from paper. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

type SecondFactorKind = 'totp' | 'recovery';

function totpOf(secretBase32: string, label = ''): TOTP {
  return new TOTP({
    issuer: APP_NAME,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** The time step of a right, not yet used authenticator code; null otherwise. */
function acceptedStep(secretBase32: string, lastUsedStep: number, code: string): number | null {
  const token = code.replace(/[\s-]/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const now = Date.now();
  const delta = totpOf(secretBase32).validate({ token, timestamp: now, window: ACCEPTED_DRIFT_STEPS });
  if (delta === null) return null;
  const step = Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
  return step > lastUsedStep ? step : null;
}

const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

/** Replaces the account's recovery codes with ten new ones, answered once in clear. */
async function replaceRecoveryCodes(ctx: AppContext, userId: string): Promise<string[]> {
  const codes = Array.from({ length: TWO_FACTOR_RECOVERY_CODE_COUNT }, newRecoveryCode);
  await ctx.db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
  await ctx.db.insert(twoFactorRecoveryCodes).values(
    codes.map((code) => ({
      id: newId(),
      userId,
      codeHash: hashSecret(normalizeRecoveryCode(code)),
    })),
  );
  return codes;
}

/** Checks a code (authenticator or recovery) of an enabled account and uses it up, or throws. */
async function consumeCode(ctx: AppContext, userId: string, code: string): Promise<SecondFactorKind> {
  const [row] = await ctx.db.select().from(twoFactor).where(eq(twoFactor.userId, userId)).for('update');
  if (!row?.enabledAt) throw new AppError('TWO_FACTOR_NOT_ENABLED');
  const step = acceptedStep(unseal(row.secretSealed, ctx.sealingKey), row.lastUsedStep, code);
  if (step !== null) {
    await ctx.db.update(twoFactor).set({ lastUsedStep: step }).where(eq(twoFactor.userId, userId));
    return 'totp';
  }
  const [recovery] = await ctx.db
    .update(twoFactorRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(twoFactorRecoveryCodes.userId, userId),
        eq(twoFactorRecoveryCodes.codeHash, hashSecret(normalizeRecoveryCode(code))),
        isNull(twoFactorRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: twoFactorRecoveryCodes.id });
  if (recovery) return 'recovery';
  throw new AppError('TWO_FACTOR_CODE_INVALID');
}

/**
 * Every code check counts, wrong or right: six digits must not be guessable, even by someone who
 * holds the password. Per (account, address), so a stranger's wrong codes never block the owner's
 * from another address; each new lockout of the pair waits twice as long and mails the owner. The
 * account-wide limit is only reached by a sustained attack from many addresses.
 */
async function countAttempt(ctx: AppContext, userId: string, ip: string | null): Promise<void> {
  if (await ctx.limiter.isExhausted('secondFactorPerAccount', userId))
    await ctx.limiter.hit('secondFactorPerAccount', userId); // throws with Retry-After
  const pair = `${userId}|${rateLimitAddress(ip)}`;
  await ctx.limiter.hitEscalating('secondFactor', 'secondFactorLockouts', pair, async (wait) => {
    await inTransaction(ctx, async (tx) =>
      mailSecurityNotice(tx, await getUserById(tx, userId), {
        kind: 'second_factor_locked',
        ip,
        waitMinutes: Math.ceil(wait / 60),
      }),
    );
  });
  await ctx.limiter.hit('secondFactorPerAccount', userId);
}

async function auditFailure(ctx: AppContext, actor: AuditActor, error: unknown): Promise<void> {
  if (error instanceof AppError && error.code === 'TWO_FACTOR_CODE_INVALID') {
    await recordRefusedAttempt(ctx, {
      actor,
      action: 'auth.second_factor_failed',
      target: { type: 'user', id: actor.id ?? '', label: actor.username ?? undefined },
    });
  }
}

/** The site requires a second factor of staff and this account is staff. */
async function isTwoFactorRequiredOf(ctx: AppContext, userId: string): Promise<boolean> {
  if (!(await getSettings(ctx)).staffTwoFactorRequired) return false;
  return (await getUserPermissions(ctx, userId)).some(isStaffPermission);
}

export async function hasTwoFactorEnabled(ctx: AppContext, userId: string): Promise<boolean> {
  const [row] = await ctx.db
    .select({ userId: twoFactor.userId })
    .from(twoFactor)
    .where(and(eq(twoFactor.userId, userId), isNotNull(twoFactor.enabledAt)));
  return row !== undefined;
}

export async function getTwoFactorStatus(ctx: AppContext, userId: string): Promise<TwoFactorStatus> {
  const [row] = await ctx.db.select().from(twoFactor).where(eq(twoFactor.userId, userId));
  const [codes] = await ctx.db
    .select({ left: count() })
    .from(twoFactorRecoveryCodes)
    .where(and(eq(twoFactorRecoveryCodes.userId, userId), isNull(twoFactorRecoveryCodes.usedAt)));
  const enabledAt = row?.enabledAt ?? null;
  return {
    enabled: enabledAt !== null,
    enabledAt: enabledAt?.toISOString() ?? null,
    recoveryCodesLeft: enabledAt ? (codes?.left ?? 0) : 0,
    required: await isTwoFactorRequiredOf(ctx, userId),
  };
}

/** Enrolment, step 1: a new secret, shown as a QR code, waiting for its first code. */
export async function startEnrollment(
  ctx: AppContext,
  user: { userId: string; username: string },
): Promise<TwoFactorSetup> {
  const secret = new Secret({ size: 20 }).base32;
  await inTransaction(ctx, async (tx) => {
    const [existing] = await tx.db
      .select()
      .from(twoFactor)
      .where(eq(twoFactor.userId, user.userId))
      .for('update');
    if (existing?.enabledAt) throw new AppError('TWO_FACTOR_ALREADY_ENABLED');
    const values = { secretSealed: seal(secret, ctx.sealingKey), enabledAt: null, lastUsedStep: 0 };
    await tx.db
      .insert(twoFactor)
      .values({ userId: user.userId, ...values })
      .onConflictDoUpdate({ target: twoFactor.userId, set: values });
  });
  const otpauthUrl = totpOf(secret, user.username).toString();
  const svg = await QRCode.toString(otpauthUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return { secret, otpauthUrl, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/**
 * Enrolment, step 2: the first code proves the app holds the secret. Two-factor is on, this session
 * counts as having given it, the account's other sessions must give a code too; ten recovery codes.
 */
export async function confirmEnrollment(
  ctx: AppContext,
  input: { userId: string; sessionId: string; password: string; code: string },
  actor: AuditActor,
): Promise<string[]> {
  await countAttempt(ctx, input.userId, actor.ip);
  const user = await getUserById(ctx, input.userId);
  if (!(await verifyPassword(user.passwordHash, input.password))) throw new AppError('WRONG_PASSWORD');
  const codes = await inTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .select()
      .from(twoFactor)
      .where(eq(twoFactor.userId, input.userId))
      .for('update');
    if (!row) throw new AppError('TWO_FACTOR_SETUP_MISSING');
    if (row.enabledAt) throw new AppError('TWO_FACTOR_ALREADY_ENABLED');
    const step = acceptedStep(unseal(row.secretSealed, ctx.sealingKey), row.lastUsedStep, input.code);
    if (step === null) throw new AppError('TWO_FACTOR_CODE_INVALID');
    const now = new Date();
    await tx.db
      .update(twoFactor)
      .set({ enabledAt: now, lastUsedStep: step })
      .where(eq(twoFactor.userId, input.userId));
    await markSecondFactorPassed(tx, input.sessionId, now);
    await writeAudit(tx, {
      actor,
      action: 'two_factor.enabled',
      target: { type: 'user', id: input.userId, label: actor.username ?? undefined },
      after: { enabled: true },
    });
    await mailSecurityNotice(tx, user, { kind: 'two_factor_enabled' });
    tx.events.emit('sessions.changed', { userId: input.userId });
    return replaceRecoveryCodes(tx, input.userId);
  });
  return codes;
}

/** The second step of a sign-in: the session becomes a full one. */
export async function passSecondFactor(
  ctx: AppContext,
  session: Pick<AuthenticatedSession, 'userId' | 'username' | 'sessionId'>,
  code: string,
  actor: AuditActor,
): Promise<void> {
  await countAttempt(ctx, session.userId, actor.ip);
  try {
    const kind = await inTransaction(ctx, async (tx) => {
      const used = await consumeCode(tx, session.userId, code);
      await markSecondFactorPassed(tx, session.sessionId);
      await writeAudit(tx, {
        actor,
        action: used === 'recovery' ? 'auth.login_recovery_code' : 'auth.login',
        target: { type: 'user', id: session.userId, label: session.username },
        after: { secondFactor: used === 'recovery' ? 'code de secours' : 'application' },
      });
      tx.events.emit('sessions.changed', { userId: session.userId });
      return used;
    });
    if (kind === 'recovery') ctx.log.info({ userId: session.userId }, 'connexion avec un code de secours');
  } catch (error) {
    await auditFailure(ctx, actor, error);
    throw error;
  }
}

/** Password and a code again: what turning two-factor off and renewing recovery codes ask. */
async function reauthenticate(
  ctx: AppContext,
  input: { userId: string; password: string; code: string },
): Promise<void> {
  const user = await getUserById(ctx, input.userId);
  if (!(await verifyPassword(user.passwordHash, input.password))) throw new AppError('WRONG_PASSWORD');
  await consumeCode(ctx, input.userId, input.code);
}

/** Turns two-factor off after re-authentication; the account's other sessions are signed out. */
export async function disableTwoFactor(
  ctx: AppContext,
  input: { userId: string; sessionId: string; password: string; code: string },
  actor: AuditActor,
): Promise<void> {
  await countAttempt(ctx, input.userId, actor.ip);
  try {
    await inTransaction(ctx, async (tx) => {
      await reauthenticate(tx, input);
      await removeTwoFactor(tx, input.userId);
      await writeAudit(tx, {
        actor,
        action: 'two_factor.disabled',
        target: { type: 'user', id: input.userId, label: actor.username ?? undefined },
        before: { enabled: true },
        after: { enabled: false },
      });
      // A session stopped at the password (someone else's, perhaps) must not become a full one now.
      await revokeSessions(tx, { userId: input.userId, exceptSessionId: input.sessionId });
      await mailSecurityNotice(tx, await getUserById(tx, input.userId), { kind: 'two_factor_disabled' });
      tx.events.emit('sessions.changed', { userId: input.userId });
    });
  } catch (error) {
    await auditFailure(ctx, actor, error);
    throw error;
  }
}

/** Ten new recovery codes after re-authentication; the old ones stop working. */
export async function renewRecoveryCodes(
  ctx: AppContext,
  input: { userId: string; password: string; code: string },
  actor: AuditActor,
): Promise<string[]> {
  await countAttempt(ctx, input.userId, actor.ip);
  try {
    return await inTransaction(ctx, async (tx) => {
      await reauthenticate(tx, input);
      await writeAudit(tx, {
        actor,
        action: 'two_factor.recovery_codes_renewed',
        target: { type: 'user', id: input.userId, label: actor.username ?? undefined },
      });
      return replaceRecoveryCodes(tx, input.userId);
    });
  } catch (error) {
    await auditFailure(ctx, actor, error);
    throw error;
  }
}

/** Removes an account's authenticator and recovery codes; false when it had none enabled. */
export async function removeTwoFactor(ctx: AppContext, userId: string): Promise<boolean> {
  const removed = await ctx.db
    .delete(twoFactor)
    .where(and(eq(twoFactor.userId, userId), isNotNull(twoFactor.enabledAt)))
    .returning({ userId: twoFactor.userId });
  await ctx.db.delete(twoFactor).where(eq(twoFactor.userId, userId));
  await ctx.db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
  return removed.length > 0;
}

/** Sessions of an account with two-factor on that have not given a code (their sockets must close). */
export async function findSessionsAwaitingSecondFactor(ctx: AppContext, userId: string): Promise<string[]> {
  const rows = await ctx.db
    .select({ id: sessions.id })
    .from(sessions)
    .innerJoin(twoFactor, eq(twoFactor.userId, sessions.userId))
    .where(
      and(
        eq(sessions.userId, userId),
        isNotNull(twoFactor.enabledAt),
        isNull(sessions.secondFactorAt),
        isNull(sessions.revokedAt),
      ),
    );
  return rows.map((row) => row.id);
}

/** Seals every TOTP secret under `to` instead of `from` (secrets-at-rest.ts), in the caller's transaction. */
export async function resealTwoFactorSecrets(
  ctx: Pick<AppContext, 'db'>,
  from: Buffer,
  to: Buffer,
): Promise<number> {
  const rows = await ctx.db
    .select({ userId: twoFactor.userId, sealed: twoFactor.secretSealed })
    .from(twoFactor);
  for (const row of rows)
    await ctx.db
      .update(twoFactor)
      .set({ secretSealed: reseal(row.sealed, from, to) })
      .where(eq(twoFactor.userId, row.userId));
  return rows.length;
}
