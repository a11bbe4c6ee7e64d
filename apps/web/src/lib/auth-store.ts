import type { Permission, User } from '@bot/contracts';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { AUTH_STORAGE_KEY } from './constants.ts';

/** docs/specification.md §6: the persisted auth state, exactly these keys (spelling `accesToken` included). */
export interface AuthState {
  token: string | null;
  /** Kept for the specification's shape (docs/specification.md); the app never stores a second secret here (docs/decisions/102). */
  accesToken: string | null;
  user: User | null;
  betaUserId: string | null;
  permissions: Permission[];
  isSnow: boolean;
}

interface AuthActions {
  setSession: (session: { user: User; token: string }) => void;
  setUser: (user: User) => void;
  setPermissions: (permissions: Permission[]) => void;
  setSnow: (isSnow: boolean) => void;
  clearSession: () => void;
}

const initialAuthState: AuthState = {
  token: null,
  accesToken: null,
  user: null,
  betaUserId: null,
  permissions: [],
  isSnow: false,
};

export const useAuthStore = create<AuthState & AuthActions>()(
  persist(
    (set) => ({
      ...initialAuthState,
      setSession: ({ user, token }) => set({ user, token }),
      setUser: (user) => set({ user }),
      setPermissions: (permissions) => set({ permissions }),
      setSnow: (isSnow) => set({ isSnow }),
      clearSession: () =>
        set({ user: null, token: null, accesToken: null, permissions: [], betaUserId: null }),
    }),
    {
      name: AUTH_STORAGE_KEY,
      storage: createJSONStorage(() => localStorage),
      partialize: ({ token, accesToken, user, betaUserId, permissions, isSnow }): AuthState => ({
        token,
        accesToken,
        user,
        betaUserId,
        permissions,
        isSnow,
      }),
    },
  ),
);

/** Connected means a user and a token both exist (docs/specification.md §6). */
export function isConnected(state: Pick<AuthState, 'user' | 'token'>): boolean {
  return Boolean(state.user && state.token);
}

export const useIsConnected = () => useAuthStore((state) => isConnected(state));
