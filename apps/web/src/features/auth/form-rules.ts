import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
} from '@bot/contracts';
import type { RegisterOptions } from 'react-hook-form';

/**
 * Client rules of the public forms: presence and length, with the contracts' bounds and messages.
 * SPEC.md section 5: the server decides (the contracts' zod schemas) and its error text is displayed,
 * so these pages ship no zod (docs/decisions/103).
 */
export const required = (message: string) => ({ required: message }) satisfies RegisterOptions;

export const usernameRules = {
  required: "Le nom d'utilisateur est requis.",
  minLength: {
    value: USERNAME_MIN_LENGTH,
    message: `Le nom d'utilisateur doit contenir au moins ${USERNAME_MIN_LENGTH} caractères.`,
  },
  maxLength: {
    value: USERNAME_MAX_LENGTH,
    message: `Le nom d'utilisateur doit contenir au plus ${USERNAME_MAX_LENGTH} caractères.`,
  },
} satisfies RegisterOptions;

export const emailRules = {
  required: 'Adresse e-mail invalide.',
  pattern: { value: /^\S+@\S+\.\S+$/, message: 'Adresse e-mail invalide.' },
} satisfies RegisterOptions;

export const passwordRules = {
  required: 'Le mot de passe est requis.',
  minLength: {
    value: PASSWORD_MIN_LENGTH,
    message: `Le mot de passe doit contenir au moins ${PASSWORD_MIN_LENGTH} caractères.`,
  },
  maxLength: {
    value: PASSWORD_MAX_LENGTH,
    message: `Le mot de passe doit contenir au plus ${PASSWORD_MAX_LENGTH} caractères.`,
  },
} satisfies RegisterOptions;
