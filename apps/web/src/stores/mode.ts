// Live or test mode (DESIGN 12): what every call of the console is about (lib/http.ts sends it as X-Mode).
// Kept per user in localStorage once the user chose; a user who never chose opens in the merchant's default
// (test while the merchant has no open live channel, as Stripe opens a new account).
// Read by the entry (the HTTP client, the guard): no zod here, so modes.schemas.ts is imported for its type only.
import type { Mode } from '@paydesk/shared/modes/modes.schemas.ts';
import { createStore } from '../lib/create-store.ts';
import { readStorage, writeStorage } from '../lib/storage.ts';

export type { Mode };

type ModeState = {
  mode: Mode;
  /** Whose mode it is: adopted once per signed-in user, so a second user of this browser has their own. */
  userId: number | null;
};

export const modeStore = createStore<ModeState>({ mode: 'live', userId: null });

const storageKey = (userId: number) => `mode:${userId}`;
const asMode = (value: string | null | undefined): Mode | undefined =>
  value === 'live' || value === 'test' ? value : undefined;

/** The signed-in user's mode: their own choice in this browser, else their merchant's default. */
export function adoptUserMode(user: { id: number; merchant: { default_mode?: Mode } }): void {
  if (modeStore.get().userId === user.id) return;
  const mode = asMode(readStorage(storageKey(user.id))) ?? user.merchant.default_mode ?? 'live';
  modeStore.set({ mode, userId: user.id });
}

/** The user's choice (the header's switch): kept for them, and every page reads its data afresh. */
export function setMode(mode: Mode): void {
  const { userId } = modeStore.get();
  if (userId !== null) writeStorage(storageKey(userId), mode);
  if (modeStore.get().mode !== mode) modeStore.set({ mode });
}

/** Signed out: no one's mode (the next user adopts theirs). */
export const forgetMode = (): void => modeStore.set({ mode: 'live', userId: null });

export const currentMode = (): Mode => modeStore.get().mode;

export const useMode = (): Mode => modeStore.useSelector((s) => s.mode);
