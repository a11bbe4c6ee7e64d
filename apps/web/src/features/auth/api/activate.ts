import { type ActivateInput, FALLBACK_MESSAGES, successAnswer } from '@bot/contracts';
import { api } from '../../../lib/api.ts';

export function activate(input: ActivateInput) {
  return api.post('/auth/activate', input, {
    schema: successAnswer,
    fallback: FALLBACK_MESSAGES.activate,
    token: null,
  });
}
