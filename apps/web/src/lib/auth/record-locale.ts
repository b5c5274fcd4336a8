import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { resolveLanguage } from '../../i18n/language.ts';
import { http } from '../http.ts';
import { type CurrentUser, currentUserQueryKey } from './get-current-user.ts';

/**
 * The console's language is the language of the user's mail (DESIGN 16): recorded once signed in when the
 * server has another, and again at each switch (PUT /api/user/locale). Silent: a failed record is tried
 * again at the next sign-in or switch.
 */
export function useRecordLocale(user: CurrentUser | undefined): void {
  const { i18n } = useTranslation();
  const language = resolveLanguage(i18n.resolvedLanguage ?? i18n.language);
  const queryClient = useQueryClient();
  const userId = user?.id;
  const recorded = user?.locale;
  useEffect(() => {
    if (userId === undefined || recorded === language) return;
    let current = true;
    http
      .put('/api/user/locale', { locale: language }, { handled: 'all' })
      .then(() => {
        if (!current) return;
        queryClient.setQueryData<CurrentUser>(currentUserQueryKey, (old) =>
          old ? { ...old, locale: language } : old,
        );
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [userId, recorded, language, queryClient]);
}
