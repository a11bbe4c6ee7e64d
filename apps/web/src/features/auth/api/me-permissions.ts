import { FALLBACK_MESSAGES, permissionsAnswer } from '@bot/contracts';
import { api } from '../../../lib/api.ts';

export async function fetchMyPermissions() {
  const answer = await api.get('/me/permissions', {
    schema: permissionsAnswer,
    fallback: FALLBACK_MESSAGES.permissions,
  });
  return answer.data;
}
