import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
} from '@bot/contracts';
import type { FieldRules } from '../../lib/light-form.ts';

/**
 * Client rules of the public forms: presence and length, with the contracts' bounds and messages.
 * docs/specification.md §4: the server decides (the contracts' zod schemas) and its error text is displayed,
 * so these pages ship neither zod nor react-hook-form (lib/light-form.ts, docs/decisions/103).
 */
export const required = (message: string): FieldRules<unknown> => ({ required: message });

const tooShortUsername = `Le nom d'utilisateur doit contenir au moins ${USERNAME_MIN_LENGTH} caractères.`;
const tooShortPassword = `Le mot de passe doit contenir au moins ${PASSWORD_MIN_LENGTH} caractères.`;

export const usernameRules: FieldRules<unknown> = {
  required: tooShortUsername,
  minLength: { value: USERNAME_MIN_LENGTH, message: tooShortUsername },
  maxLength: {
    value: USERNAME_MAX_LENGTH,
    message: `Le nom d'utilisateur doit contenir au plus ${USERNAME_MAX_LENGTH} caractères.`,
  },
};

export const emailRules: FieldRules<unknown> = {
  required: 'Adresse e-mail invalide.',
  pattern: { value: /^\S+@\S+\.\S+$/, message: 'Adresse e-mail invalide.' },
};

export const passwordRules: FieldRules<unknown> = {
  required: tooShortPassword,
  minLength: { value: PASSWORD_MIN_LENGTH, message: tooShortPassword },
  maxLength: {
    value: PASSWORD_MAX_LENGTH,
    message: `Le mot de passe doit contenir au plus ${PASSWORD_MAX_LENGTH} caractères.`,
  },
};
