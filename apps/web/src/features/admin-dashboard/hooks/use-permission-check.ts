import type { Permission } from '@bot/contracts';
import { useMemo } from 'react';
import { useAuthStore } from '../../../lib/auth-store.ts';

/** The permissions the signed-in user holds (an administrator holds them all). */
export function usePermissionCheck() {
  const permissions = useAuthStore((state) => state.permissions);
  const isAdministrator = useAuthStore((state) => state.user?.Policy.IsAdministrator === true);
  return useMemo(
    () => ({
      has: (permission: Permission) => isAdministrator || permissions.includes(permission),
      permissions,
      isAdministrator,
    }),
    [permissions, isAdministrator],
  );
}
