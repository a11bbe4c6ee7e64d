import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-error.ts';
import { useAuthStore } from './auth-store.ts';

/** Server state of the account and admin areas (loaded with them, not with the public pages). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // A 4xx answer will not change by asking again.
      retry: (failureCount, error) =>
        !(isApiError(error) && error.status >= 400 && error.status < 500) && failureCount < 2,
    },
    mutations: { retry: false },
  },
});

// A session that ends (logout, 401) must not leave the previous user's data in the cache.
useAuthStore.subscribe((state, previous) => {
  if (previous.token && !state.token) queryClient.clear();
});
