import { useCallback } from 'react';
import { isPasswordConfirmed } from '../../../lib/auth/confirm-password.ts';
import { isHttpError } from '../../../lib/http.ts';
import { askForPassword } from '../../../lib/password-prompt.ts';

const isConfirmed = () => isPasswordConfirmed().catch(() => false);

/**
 * Runs an action that needs a confirmed password (two-factor changes, recovery codes, ending sessions).
 * It asks first when the server says the confirmation is missing, as Jetstream does, rather than
 * provoking a 423; a confirmation that lapses in between gets its 423, and the HTTP client asks then.
 * Resolves undefined when the user cancels.
 */
export function usePasswordConfirmation() {
  const withConfirmation = useCallback(async <T,>(action: () => Promise<T>): Promise<T | undefined> => {
    if (!(await isConfirmed()) && (await askForPassword()) === false) return undefined;
    try {
      return await action();
    } catch (error) {
      if (isHttpError(error) && error.kind === 'cancelled') return undefined;
      throw error;
    }
  }, []);
  return { withConfirmation };
}
