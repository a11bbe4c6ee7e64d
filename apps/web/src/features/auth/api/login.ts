import { FALLBACK_MESSAGES, type LoginInput, loginAnswer } from '@bot/contracts';
import { api } from '../../../lib/api.ts';

/** POST /auth/login: the caller shows the error (it may offer to resend the activation mail). */
export function login(input: LoginInput) {
  return api.post('/auth/login', input, {
    schema: loginAnswer,
    fallback: FALLBACK_MESSAGES.login,
    silent: true,
    token: null,
  });
}
