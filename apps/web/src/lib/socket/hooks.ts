import { useQuery } from '@tanstack/react-query';

/**
 * Reads a value the sockets write to the query cache (see bot-cache.ts, fleet-cache.ts). Nothing is fetched: until a
 * socket writes, the value is `initial`.
 */
export function useLiveData<T>(queryKey: readonly unknown[], initial: T): T {
  const query = useQuery({
    queryKey,
    queryFn: () => initial,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnMount: false,
    refetchOnReconnect: false,
  });
  return (query.data as T | undefined) ?? initial;
}
