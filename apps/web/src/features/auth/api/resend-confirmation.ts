import { FALLBACK_MESSAGES } from '@bot/contracts';
import { api } from '../../../lib/api.ts';

export function resendConfirmation(input: { username: string }) {
  return api.post('/auth/resend-confirmation', input, { fallback: FALLBACK_MESSAGES.resend, token: null });
}
