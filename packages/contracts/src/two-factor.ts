import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from './constants.ts';

/**
 * Two-factor authentication (TOTP, RFC 6238): six digits from an authenticator app, or one of the
 * ten single-use recovery codes ("abcde-fghij"). Spaces and dashes typed by people are ignored.
 */
export const TWO_FACTOR_RECOVERY_CODE_COUNT = 10;

export const secondFactorCode = z
  .string()
  .trim()
  .min(6, 'Saisissez le code à 6 chiffres ou un code de secours.')
  .max(32, 'Code trop long.');

/** Body of `POST /auth/second-factor`: the second step of a sign-in. */
export const secondFactorInput = z.strictObject({ code: secondFactorCode });

/**
 * Body of `POST /me/two-factor/enable`: the password (a stolen session alone must not put its own
 * authenticator on the account) and the first code the app shows, which proves the enrolment.
 */
export const twoFactorEnableInput = z.strictObject({
  password: z.string().min(1, 'Le mot de passe est requis.').max(PASSWORD_MAX_LENGTH),
  code: z
    .string()
    .trim()
    .regex(/^\d{3} ?\d{3}$/, 'Saisissez les 6 chiffres affichés par votre application.'),
});

/** Turning it off or getting new recovery codes asks for the password and a code again. */
export const twoFactorReauthInput = z.strictObject({
  password: z.string().min(1, 'Le mot de passe est requis.').max(PASSWORD_MAX_LENGTH),
  code: secondFactorCode,
});

export const twoFactorStatusAnswer = z.object({
  data: z.object({
    enabled: z.boolean(),
    enabledAt: z.string().nullable(),
    recoveryCodesLeft: z.number().int(),
    /** True when the site requires it of this account (staff, `staffTwoFactorRequired` on). */
    required: z.boolean(),
  }),
});

export const twoFactorSetupAnswer = z.object({
  data: z.object({
    /** Base32, for people who type it instead of scanning. */
    secret: z.string(),
    otpauthUrl: z.string(),
    /** The otpauth URL as an SVG QR code, in a `data:` URL. */
    qrCode: z.string(),
  }),
});

export const recoveryCodesAnswer = z.object({ data: z.object({ recoveryCodes: z.array(z.string()) }) });

export type SecondFactorInput = z.infer<typeof secondFactorInput>;
export type TwoFactorEnableInput = z.infer<typeof twoFactorEnableInput>;
export type TwoFactorReauthInput = z.infer<typeof twoFactorReauthInput>;
export type TwoFactorStatus = z.infer<typeof twoFactorStatusAnswer>['data'];
export type TwoFactorSetup = z.infer<typeof twoFactorSetupAnswer>['data'];
