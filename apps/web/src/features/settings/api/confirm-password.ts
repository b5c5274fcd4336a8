import { useMutation } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';

/** POST /api/user/confirm-password: 201, or 422 errors.password; it lasts three hours for this session. */
export const confirmPassword = (password: string): Promise<void> =>
  http.post<void>('/api/user/confirm-password', { password }, { handled: [422, 429] });

export const useConfirmPassword = () => useMutation({ mutationFn: confirmPassword });

/** GET /api/user/confirmed-password-status: whether this session's password confirmation still holds. */
export const isPasswordConfirmed = (): Promise<boolean> =>
  http
    .get<{ confirmed: boolean }>('/api/user/confirmed-password-status', { handled: 'all' })
    .then((r) => r.confirmed);
