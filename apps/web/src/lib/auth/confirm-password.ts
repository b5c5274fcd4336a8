import { useMutation } from '@tanstack/react-query';
import { ConfirmedPasswordStatusSchema } from '@paydesk/shared/security/security.schemas.ts';
import { http } from '../http.ts';

/** POST /api/user/confirm-password: 201, or 422 errors.password; it lasts three hours for this session. */
export const confirmPassword = (password: string): Promise<void> =>
  http.post('/api/user/confirm-password', { password }, { handled: [422, 429] });

export const useConfirmPassword = () => useMutation({ mutationFn: confirmPassword });

/** GET /api/user/confirmed-password-status: whether this session's password confirmation still holds. */
export const isPasswordConfirmed = (): Promise<boolean> =>
  http
    .get('/api/user/confirmed-password-status', { handled: 'all', schema: ConfirmedPasswordStatusSchema })
    .then((r) => r.confirmed);
