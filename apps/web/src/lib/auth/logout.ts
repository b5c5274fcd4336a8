import { useMutation } from '@tanstack/react-query';
import { http } from '../http.ts';
import { resetSession } from './session.ts';

/** POST /api/logout: the server ends the session and clears the cookies; a failure still signs out here. */
export async function logout(): Promise<void> {
  try {
    await http.post<void>('/api/logout', undefined, { handled: 'all' });
  } finally {
    resetSession();
  }
}

export const useLogout = () => useMutation({ mutationFn: logout });
