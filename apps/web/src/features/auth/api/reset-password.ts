import type { ResetPasswordInput } from '@bot/contracts';
import { api } from '../../../lib/api.ts';

export function resetPassword(input: ResetPasswordInput) {
  return api.post('/auth/reset-password', input, {
    fallback: 'La réinitialisation du mot de passe a échoué.',
    token: null,
  });
}
