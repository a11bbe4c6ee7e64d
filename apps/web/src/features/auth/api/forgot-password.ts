import { api } from '../../../lib/api.ts';

export function requestPasswordReset(input: { email: string }) {
  return api.post('/auth/forgot-password', input, {
    fallback: 'La demande de réinitialisation a échoué.',
    token: null,
  });
}
