// React Query over api.request: reads are cached briefly, retried only when retrying can help.
import { QueryClient } from '@tanstack/react-query';
import { isRetryable } from './errors';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        gcTime: 5 * 60_000,
        refetchOnWindowFocus: false,
        retry: (count, err) => count < 2 && isRetryable(err),
        retryDelay: (n) => Math.min(4000, 500 * 2 ** n),
      },
      mutations: { retry: false },
    },
  });
}
