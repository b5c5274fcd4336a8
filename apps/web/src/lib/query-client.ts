import { hashKey, QueryClient, type QueryKey } from '@tanstack/react-query';
import { currentMode } from '../stores/mode.ts';

// The signed-in user is the same in both modes (it says which mode to open in): one entry, not one per mode;
// so are the user's notifications (the header bell).
const MODE_FREE_KEYS: readonly QueryKey[] = [['merchant', 'user'], ['notifications']];
const isModeFree = (queryKey: QueryKey) =>
  MODE_FREE_KEYS.some((free) => free.every((part, index) => queryKey[index] === part));

/**
 * Every cached answer belongs to the mode it was read in (DESIGN 12: nothing crosses between live and
 * test): the mode is part of every query's hash, here, once, so no endpoint can forget it. A page keeps its
 * keys as they are; `invalidateQueries` matches keys, so it reaches both modes' entries. The layout mounts
 * its pages afresh when the mode changes (app-layout.tsx), so no observer goes on showing the other mode's
 * answer as placeholder while the new one loads.
 */
export const modeQueryKeyHash = (queryKey: QueryKey): string =>
  hashKey(isModeFree(queryKey) ? queryKey : [currentMode(), ...queryKey]);

// The HTTP client has already shown every failure the catalogue covers: retrying would show it again.
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: true, queryKeyHashFn: modeQueryKeyHash },
    mutations: { retry: false },
  },
});
