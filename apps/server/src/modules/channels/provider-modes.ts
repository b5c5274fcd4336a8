import type { Mode } from '@paydesk/shared/modes/modes.schemas.ts';

/**
 * Whether a provider's channels may serve a mode (DESIGN 12): the sandbox serves test mode only, so a live
 * sandbox channel is never opened and a live order is never paid on the sandbox page. (At merge this is
 * the adapter registry's answer, DESIGN 13.)
 */
export const providerServesMode = (provider: string, mode: Mode): boolean =>
  provider !== 'sandbox' || mode === 'test';
