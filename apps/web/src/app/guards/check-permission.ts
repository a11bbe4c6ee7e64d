import { FALLBACK_MESSAGES, type Permission } from '@bot/contracts';
import { api } from '../../lib/api.ts';
import { ApiError } from '../../lib/api-error.ts';

/** POST /auth/check-permission with every permission the page needs (all required). Used by route guards. */
export async function checkPermissions(permissions: Permission[], signal?: AbortSignal): Promise<boolean> {
  const body = permissions.length === 1 ? { permission: permissions[0] } : { permissions };
  const answer = await api.post<{ allowed?: unknown }>('/auth/check-permission', body, {
    fallback: FALLBACK_MESSAGES.checkPermission,
    signal,
  });
  if (typeof answer?.allowed !== 'boolean')
    throw new ApiError(200, 'INVALID_ANSWER', FALLBACK_MESSAGES.checkPermission);
  return answer.allowed;
}
