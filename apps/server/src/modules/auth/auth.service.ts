import type { RegisterInput, User } from '@bot/contracts';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { type AppContext, inTransaction, type TxContext } from '../../context.ts';
import { runInBackground } from '../../core/background.ts';
import { rateLimitAddress } from '../../core/client-address.ts';
import { AppError } from '../../core/errors.ts';
import { hashSecret, newId, newSecret } from '../../core/ids.ts';
import { buildLinkMail } from '../../core/mailer.ts';
import { assertStrongPassword, getDummyHash, hashPassword, verifyPassword } from '../../core/passwords.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { getPublicUser } from '../access/index.ts';
import { recordRefusedAttempt, writeAudit } from '../audit/index.ts';
import { queueMail } from '../mail/index.ts';
import { getSettings } from '../settings/index.ts';
import {
  createUser,
  findUserByEmail,
  findUserByLogin,
  findUserByUsername,
  getUserById,
  markActivated,
  type UserRow,
  updatePasswordHash,
} from '../users/index.ts';
import { mailboxOf, mayMailLink, passwordFailures, retireLinks, withinMailLimits } from './auth-limits.ts';
import { mailSecurityNotice } from './security-mails.ts';
import { createSession, isUnknownDevice, revokeSessions } from './sessions.service.ts';
import { hasTwoFactorEnabled } from './two-factor.service.ts';
import { userTokens } from './user-tokens.table.ts';

export interface RequestOrigin {
  ip: string | null;
  userAgent: string | null;
}

/** `details.field` names the form field the refusal concerns: the web form shows it there. */
const usernameTaken = () => new AppError('USERNAME_TAKEN', { details: { field: 'username' } });

/**
 * Creates an unactivated account and mails its activation link. An e-mail that already has an
 * account gets the same answer as a fresh registration (nothing tells a stranger which addresses
 * are customers); its owner is told by mail instead. A taken username is still refused: a public
 * name is no secret.
 */
export async function registerUser(
  ctx: AppContext,
  input: RegisterInput,
  origin: RequestOrigin,
): Promise<User> {
  const settings = await getSettings(ctx);
  if (!settings.registrationOpen) throw new AppError('REGISTRATION_CLOSED');
  if (await findUserByUsername(ctx, input.username)) throw usernameTaken();
  await assertStrongPassword(input.password, [input.username, input.email, input.email.split('@')[0] ?? '']);

  const referrer = input.referral ? await findUserByUsername(ctx, input.referral) : undefined;
  // A mistyped sponsor would silently lose its credit: refused, next to its field.
  if (input.referral && !referrer) {
    throw new AppError('REFERRAL_UNKNOWN', { details: { field: 'referral' } });
  }
  const passwordHash = await hashPassword(input.password);
  const owner = await findUserByEmail(ctx, input.email);
  if (owner) return answerAsIfRegistered(ctx, input, owner, referrer?.username ?? null);
  let user: UserRow;
  try {
    user = await inTransaction(ctx, async (tx) => {
      const created = await createUser(tx, {
        username: input.username,
        email: input.email,
        passwordHash,
        referral: referrer ? referrer.username : null,
        referredById: referrer?.id ?? null,
      });
      await writeAudit(tx, {
        actor: { id: created.id, username: created.username, ip: origin.ip },
        action: 'auth.register',
        target: { type: 'user', id: created.id, label: created.username },
        after: { username: created.username, email: created.email, referral: created.referral },
      });
      await sendActivationMail(tx, created);
      return created;
    });
  } catch (error) {
    // Two registrations raced past the checks above: the unique indexes decide.
    if (isUniqueViolation(error, 'users_username_lower_idx')) throw usernameTaken();
    if (isUniqueViolation(error, 'users_email_lower_idx')) {
      const raced = await findUserByEmail(ctx, input.email);
      if (raced) return answerAsIfRegistered(ctx, input, raced, referrer?.username ?? null);
    }
    throw error;
  }
  return getPublicUser(ctx, user.id);
}

/** The answer a fresh registration would give (a user that was not created), and a mail to the owner. */
async function answerAsIfRegistered(
  ctx: AppContext,
  input: RegisterInput,
  owner: UserRow,
  referral: string | null,
): Promise<User> {
  // Strangers send it: one a day per mailbox (decision 914), the answer the same either way.
  const isNoticeDue = await ctx.limiter.allows([['registrationNotice', mailboxOf(owner.email)]]);
  if (isNoticeDue)
    await inTransaction(ctx, (tx) =>
      queueMail(
        tx,
        buildLinkMail({
          to: owner.email,
          subject: 'Tentative d’inscription avec votre adresse',
          greeting: `Bonjour ${owner.username},`,
          body: `Quelqu’un vient de demander l’inscription « ${input.username} » avec votre adresse e-mail, qui a déjà un compte. Si c’était vous, connectez-vous avec votre identifiant ${owner.username}, ou choisissez un nouveau mot de passe.`,
          action: 'Choisir un nouveau mot de passe',
          link: `${ctx.config.publicUrl}/forgot-password`,
          footer: 'Si vous n’avez rien demandé, ignorez ce message : aucun compte n’a été créé.',
        }),
      ),
    );
  const now = new Date();
  return {
    id: newId(),
    username: input.username,
    email: input.email,
    discordId: null,
    hwid: null,
    referral,
    activated: false,
    createdAt: now.toISOString(),
    roles: [],
    Policy: { IsAdministrator: false },
  };
}

async function issueToken(ctx: AppContext, user: UserRow, kind: 'activation' | 'reset'): Promise<string> {
  const token = newSecret(32);
  const ttl = kind === 'activation' ? ctx.config.activationTokenTtlMs : ctx.config.resetTokenTtlMs;
  await ctx.db.insert(userTokens).values({
    id: newId(),
    userId: user.id,
    kind,
    tokenHash: hashSecret(token),
    expiresAt: new Date(Date.now() + ttl),
    mailbox: mailboxOf(user.email),
  });
  return token;
}

/** In the caller's transaction; skipped when the mailbox holds its links already (decision 914). */
async function sendActivationMail(ctx: TxContext, user: UserRow): Promise<void> {
  if (!(await mayMailLink(ctx, user, 'activation'))) return;
  const token = await issueToken(ctx, user, 'activation');
  const link = `${ctx.config.publicUrl}/login?username=${encodeURIComponent(user.username)}&token=${encodeURIComponent(token)}`;
  await queueMail(
    ctx,
    buildLinkMail({
      to: user.email,
      subject: 'Activez votre compte',
      greeting: `Bonjour ${user.username},`,
      body: 'Merci pour votre inscription. Cliquez sur le lien ci-dessous pour activer votre compte.',
      action: 'Activer mon compte',
      link,
      footer:
        "Ce lien est valable 48 heures. Si vous n'êtes pas à l'origine de cette inscription, ignorez ce message.",
    }),
  );
}

/** Consumes a single-use token of the given kind; answers its user id. */
async function consumeToken(
  ctx: AppContext,
  kind: 'activation' | 'reset',
  token: string,
  userId?: string,
): Promise<string> {
  const conditions = [
    eq(userTokens.tokenHash, hashSecret(token)),
    eq(userTokens.kind, kind),
    isNull(userTokens.usedAt),
    gt(userTokens.expiresAt, new Date()),
  ];
  if (userId) conditions.push(eq(userTokens.userId, userId));
  // The conditional update is the single-use guarantee: two concurrent uses cannot both match.
  const [used] = await ctx.db
    .update(userTokens)
    .set({ usedAt: new Date() })
    .where(and(...conditions))
    .returning({ userId: userTokens.userId });
  if (!used) throw new AppError('INVALID_TOKEN');
  return used.userId;
}

export async function activateUser(
  ctx: AppContext,
  input: { username: string; token: string },
  origin: RequestOrigin,
): Promise<void> {
  // One answer for every failure (unknown user, already active, wrong, used or expired token):
  // the endpoint must not tell which usernames exist or are activated.
  const refusal = new AppError('ACTIVATION_REFUSED');
  const user = await findUserByUsername(ctx, input.username);
  if (!user || user.activatedAt) throw refusal;
  await inTransaction(ctx, async (tx) => {
    await consumeToken(tx, 'activation', input.token, user.id).catch(() => {
      throw refusal;
    });
    await markActivated(tx, user.id);
    await retireLinks(tx, user.id, ['activation']);
    await writeAudit(tx, {
      actor: { id: user.id, username: user.username, ip: origin.ip },
      action: 'auth.activate',
      target: { type: 'user', id: user.id, label: user.username },
    });
  });
}

/**
 * Sends a new activation link when the account exists and waits for activation; silent otherwise.
 * Over a limit (per address, per account and address, account-wide) or the mailbox's cap of
 * links, the mail is skipped quietly.
 */
export async function resendConfirmation(
  ctx: AppContext,
  login: string,
  origin: Pick<RequestOrigin, 'ip'>,
): Promise<void> {
  if (!(await withinMailLimits(ctx, 'resend', login, origin))) return;
  const user = await findUserByLogin(ctx, login);
  if (!user || user.activatedAt || user.bannedAt) return;
  await inTransaction(ctx, (tx) => sendActivationMail(tx, user));
}

export async function loginUser(
  ctx: AppContext,
  input: { username: string; password: string },
  origin: RequestOrigin,
): Promise<{ user: UserRow; token: string; secondFactorRequired: boolean }> {
  // OWASP: throttle failures per (account, address), so a stranger cannot lock the owner out,
  // with a softer account-wide limit against guesses spread over many addresses.
  // Only wrong passwords count against an account: an attempt that failed for another reason (the
  // database was down) must not lock its owner out once it is back.
  const throttle = passwordFailures(ctx, input.username, origin.ip);
  await ctx.limiter.hit('loginPerIp', rateLimitAddress(origin.ip));
  await throttle.refuseWhenExhausted();

  const user = await findUserByLogin(ctx, input.username);
  // Unknown users cost one argon2 verification too, so timing tells nothing.
  const isPasswordRight = await verifyPassword(user?.passwordHash ?? (await getDummyHash()), input.password);
  if (!user || !isPasswordRight) {
    await throttle.failed();
    await recordRefusedAttempt(ctx, {
      actor: { id: user?.id ?? null, username: input.username.slice(0, 64), ip: origin.ip },
      action: 'auth.login_failed',
      target: user ? { type: 'user', id: user.id, label: user.username } : undefined,
    });
    throw new AppError('INVALID_CREDENTIALS');
  }
  if (!user.activatedAt) throw new AppError('ACCOUNT_NOT_ACTIVATED');
  if (user.bannedAt)
    throw new AppError('ACCOUNT_BANNED', {
      details: user.banReason ? { reason: user.banReason } : undefined,
    });
  await throttle.succeeded();
  return inTransaction(ctx, async (tx) => {
    const isNewDevice = await isUnknownDevice(tx, user.id, origin.userAgent);
    const { token } = await createSession(tx, { userId: user.id, ...origin });
    if (isNewDevice) await mailSecurityNotice(tx, user, { kind: 'new_device', ...origin });
    // With two-factor on, the sign-in ends (and is audited) when the code is given.
    const secondFactorRequired = await hasTwoFactorEnabled(tx, user.id);
    if (!secondFactorRequired) {
      await writeAudit(tx, {
        actor: { id: user.id, username: user.username, ip: origin.ip },
        action: 'auth.login',
        target: { type: 'user', id: user.id, label: user.username },
      });
    }
    return { user, token, secondFactorRequired };
  });
}

/**
 * Mails a reset link when the e-mail belongs to an account; the answer is the same either way, and
 * as fast: the link is issued and mailed after the answer, so timing tells no more than the body.
 */
export async function requestPasswordReset(
  ctx: AppContext,
  email: string,
  origin: RequestOrigin,
): Promise<void> {
  if (!(await withinMailLimits(ctx, 'forgot', email, origin))) return;
  const user = await findUserByEmail(ctx, email.trim());
  if (!user || user.bannedAt) return;
  runInBackground(ctx.log, 'lien de réinitialisation', () =>
    inTransaction(ctx, (tx) => mailResetLink(tx, user, origin)),
  );
}

async function mailResetLink(tx: TxContext, user: UserRow, origin: RequestOrigin): Promise<void> {
  if (!(await mayMailLink(tx, user, 'reset'))) return;
  const token = await issueToken(tx, user, 'reset');
  const link = `${tx.config.publicUrl}/forgot-password?token=${encodeURIComponent(token)}`;
  await queueMail(
    tx,
    buildLinkMail({
      to: user.email,
      subject: 'Réinitialisation de votre mot de passe',
      greeting: `Bonjour ${user.username},`,
      body: 'Une réinitialisation du mot de passe a été demandée pour votre compte.',
      action: 'Choisir un nouveau mot de passe',
      link,
      footer:
        "Ce lien est valable 30 minutes. Si vous n'avez rien demandé, ignorez ce message : votre mot de passe reste inchangé.",
    }),
  );
  await writeAudit(tx, {
    actor: { id: null, username: null, ip: origin.ip },
    action: 'auth.password_reset_requested',
    target: { type: 'user', id: user.id, label: user.username },
  });
}

/** Sets a new password from a reset link and ends every session of the account. */
export async function resetPassword(
  ctx: AppContext,
  input: { token: string; password: string },
  origin: RequestOrigin,
): Promise<void> {
  const [pending] = await ctx.db
    .select({ userId: userTokens.userId })
    .from(userTokens)
    .where(
      and(
        eq(userTokens.tokenHash, hashSecret(input.token)),
        eq(userTokens.kind, 'reset'),
        isNull(userTokens.usedAt),
        gt(userTokens.expiresAt, new Date()),
      ),
    );
  if (!pending) throw new AppError('INVALID_TOKEN');
  const user = await getUserById(ctx, pending.userId);
  await assertStrongPassword(input.password, [user.username, user.email]);
  const passwordHash = await hashPassword(input.password);
  await inTransaction(ctx, async (tx) => {
    const userId = await consumeToken(tx, 'reset', input.token);
    // Every other link of the account dies with this one (an older mail must not work later); the
    // reset activates the account too, so its activation links are of no more use.
    await retireLinks(tx, userId, ['reset', 'activation']);
    await updatePasswordHash(tx, userId, passwordHash);
    // A reset also proves the e-mail: it activates an account that was waiting for activation.
    if (!user.activatedAt) await markActivated(tx, userId);
    await revokeSessions(tx, { userId });
    await mailSecurityNotice(tx, user, { kind: 'password_changed' });
    await writeAudit(tx, {
      actor: { id: user.id, username: user.username, ip: origin.ip },
      action: 'auth.password_reset',
      target: { type: 'user', id: user.id, label: user.username },
    });
  });
}

/** Changes the password of a signed-in user and ends their other sessions. */
export async function changePassword(
  ctx: AppContext,
  input: { userId: string; sessionId: string; currentPassword: string; newPassword: string },
  origin: RequestOrigin,
): Promise<void> {
  const user = await getUserById(ctx, input.userId);
  const throttle = passwordFailures(ctx, user.username, origin.ip);
  await throttle.refuseWhenExhausted();
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    await throttle.failed();
    throw new AppError('WRONG_PASSWORD');
  }
  await assertStrongPassword(input.newPassword, [user.username, user.email]);
  const passwordHash = await hashPassword(input.newPassword);
  await inTransaction(ctx, async (tx) => {
    await updatePasswordHash(tx, user.id, passwordHash);
    await revokeSessions(tx, { userId: user.id, exceptSessionId: input.sessionId });
    await mailSecurityNotice(tx, user, { kind: 'password_changed' });
    await writeAudit(tx, {
      actor: { id: user.id, username: user.username, ip: origin.ip },
      action: 'auth.password_changed',
      target: { type: 'user', id: user.id, label: user.username },
    });
  });
}

export async function logout(ctx: AppContext, input: { userId: string; sessionId: string }): Promise<void> {
  await inTransaction(ctx, (tx) =>
    revokeSessions(tx, { userId: input.userId, sessionIds: [input.sessionId] }),
  );
}
