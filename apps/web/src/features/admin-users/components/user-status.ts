import type { AdminUser, UserStatus } from '@bot/contracts';

export function statusOf(user: Pick<AdminUser, 'bannedAt' | 'activated'>): UserStatus {
  if (user.bannedAt) return 'banned';
  return user.activated ? 'active' : 'pending';
}
export const STATUS_COLORS = { active: 'success', pending: 'warning', banned: 'error' } as const;
