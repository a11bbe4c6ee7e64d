import { FALLBACK_MESSAGES, type RegisterInput, registerAnswer } from '@bot/contracts';
import { api } from '../../../lib/api.ts';

/** Silent: the registration form shows the refusal under its field, or in a toast when it has none. */
export function register(input: RegisterInput) {
  return api.post('/auth/register', input, {
    schema: registerAnswer,
    fallback: FALLBACK_MESSAGES.register,
    token: null,
    silent: true,
  });
}
