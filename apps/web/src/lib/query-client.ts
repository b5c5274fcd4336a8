import { QueryClient } from '@tanstack/react-query';

// The HTTP client has already shown every failure the catalogue covers: retrying would show it again.
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: true },
    mutations: { retry: false },
  },
});
