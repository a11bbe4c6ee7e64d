import { z } from 'zod';
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
} from './constants.ts';
import { hwidResetAllowanceSchema } from './licensing.ts';
import { PERMISSIONS } from './permissions.ts';

export const usernameSchema = z
  .string()
  .trim()
  .min(USERNAME_MIN_LENGTH, `Le nom d'utilisateur doit contenir au moins ${USERNAME_MIN_LENGTH} caractères.`)
  .max(USERNAME_MAX_LENGTH, `Le nom d'utilisateur doit contenir au plus ${USERNAME_MAX_LENGTH} caractères.`)
  .regex(/^[A-Za-z0-9_.-]+$/, "Le nom d'utilisateur ne peut contenir que des lettres, chiffres, _ . et -.");

export const emailSchema = z.string().trim().max(254).email('Adresse e-mail invalide.');

/** Length only: no composition rules; strength is judged by the server (zxcvbn). */
export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Le mot de passe doit contenir au moins ${PASSWORD_MIN_LENGTH} caractères.`)
  .max(PASSWORD_MAX_LENGTH, `Le mot de passe doit contenir au plus ${PASSWORD_MAX_LENGTH} caractères.`);

export const loginInput = z.strictObject({
  username: z.string().trim().min(1, "Le nom d'utilisateur est requis.").max(254),
  password: z.string().min(1, 'Le mot de passe est requis.').max(PASSWORD_MAX_LENGTH),
});

export const registerInput = z.strictObject({
  username: usernameSchema,
  password: passwordSchema,
  email: emailSchema,
  referral: z.string().trim().max(32).optional().nullable(),
});

export const activateInput = z.strictObject({
  username: z.string().trim().min(1).max(254),
  token: z.string().trim().min(1).max(256),
});

export const resendConfirmationInput = z.strictObject({ username: z.string().trim().min(1).max(254) });
export const forgotPasswordInput = z.strictObject({ email: emailSchema });
export const resetPasswordInput = z.strictObject({
  token: z.string().trim().min(1).max(256),
  password: passwordSchema,
});
export const changePasswordInput = z.strictObject({
  currentPassword: z.string().min(1).max(PASSWORD_MAX_LENGTH),
  newPassword: passwordSchema,
});
export const discordInput = z.strictObject({
  discordId: z.string().trim().min(2).max(64, 'Identifiant Discord trop long.').nullable(),
});

const permissionName = z.enum(PERMISSIONS);
export const checkPermissionInput = z.union([
  z.strictObject({ permissions: z.array(permissionName).min(1).max(PERMISSIONS.length) }),
  z.strictObject({ permission: permissionName }),
]);

export const roleRef = z.object({ id: z.string(), name: z.string() });

/** The user object of docs/specification.md §4. Never a secret. */
export const userSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  discordId: z.string().nullable(),
  hwid: z.string().nullable(),
  referral: z.string().nullable(),
  activated: z.boolean(),
  createdAt: z.string(),
  roles: z.array(roleRef),
  Policy: z.object({ IsAdministrator: z.boolean() }),
});

/**
 * `secondFactorRequired`: the account has two-factor authentication on; the token is good for
 * nothing but `POST /auth/second-factor` (and logout) until a code is given.
 */
export const loginAnswer = z.object({
  user: userSchema,
  token: z.string(),
  secondFactorRequired: z.boolean(),
});
export const registerAnswer = z.object({ user: userSchema });
export const successAnswer = z.object({ success: z.literal(true) });
export const userInfoAnswer = z.object({ data: userSchema });
export const permissionsAnswer = z.object({ data: z.array(permissionName) });
export const checkPermissionAnswer = z.object({ allowed: z.boolean() });
export const botKeyAnswer = z.object({ data: z.object({ accessKey: z.string() }) });
export const hwidResetAnswer = z.object({
  data: userSchema,
  nextResetAt: z.string(),
  /** What the customer has left after this unbind (decision 906). */
  resets: hwidResetAllowanceSchema,
});

export type LoginInput = z.infer<typeof loginInput>;
export type RegisterInput = z.infer<typeof registerInput>;
export type ActivateInput = z.infer<typeof activateInput>;
export type ResetPasswordInput = z.infer<typeof resetPasswordInput>;
export type ChangePasswordInput = z.infer<typeof changePasswordInput>;
export type CheckPermissionInput = z.infer<typeof checkPermissionInput>;
export type User = z.infer<typeof userSchema>;
export type LoginAnswer = z.infer<typeof loginAnswer>;

/**
 * One of the signed-in user's own open sessions (`GET /me/sessions`): the device is shown in words
 * from `userAgent` (`describeUserAgent`), `current` marks the session asking.
 */
export const mySessionSchema = z.object({
  id: z.string(),
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean(),
  /** The password was given, the two-factor code not yet: a sign-in in progress, perhaps not the owner's. */
  awaitingSecondFactor: z.boolean(),
});
export type MySession = z.infer<typeof mySessionSchema>;
export const mySessionsAnswer = z.object({ data: z.array(mySessionSchema) });
export const mySessionParams = z.object({ sessionId: z.string().uuid('Identifiant invalide.') });
export const revokedAnswer = z.object({ revoked: z.number().int() });
