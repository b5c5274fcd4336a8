import { useMutation } from '@tanstack/react-query';
import type { TwoFactorChallengeBody } from '@paydesk/shared/security/security.schemas.ts';
import { http } from '../../../lib/http.ts';

/**
 * POST /api/two-factor-challenge: 204 and signed in; 422 with errors.code or errors.recovery_code;
 * 401 when the login it continues is gone (the login page starts over).
 */
export const twoFactorChallenge = (input: TwoFactorChallengeBody): Promise<void> =>
  http.post('/api/two-factor-challenge', input, { handled: [401, 422, 429] });

export const useTwoFactorChallenge = () => useMutation({ mutationFn: twoFactorChallenge });
