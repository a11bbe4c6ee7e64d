import { FALLBACK_MESSAGES, userInfoAnswer } from '@bot/contracts';
import { api } from '../../../lib/api.ts';

export const meKeys = {
  all: ['me'] as const,
  info: () => [...meKeys.all, 'info'] as const,
  permissions: () => [...meKeys.all, 'permissions'] as const,
};

export async function fetchMeInfo() {
  const answer = await api.get('/me/info', { schema: userInfoAnswer, fallback: FALLBACK_MESSAGES.info });
  return answer.data;
}
