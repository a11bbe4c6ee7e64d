import { FALLBACK_MESSAGES, type RegisterInput, registerAnswer } from '@bot/contracts';
import { api } from '../../../lib/api.ts';

export function register(input: RegisterInput) {
  return api.post('/auth/register', input, {
    schema: registerAnswer,
    fallback: FALLBACK_MESSAGES.register,
    token: null,
  });
}
