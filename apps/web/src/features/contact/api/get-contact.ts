import { queryOptions, useQuery } from '@tanstack/react-query';
import { type Contact, ContactResponseSchema } from '@paydesk/shared/contact/contact.schemas.ts';
import { http } from '../../../lib/http.ts';

export type { Contact };

export const contactQueryOptions = (language: string) =>
  queryOptions({
    queryKey: ['merchant', 'contact', language],
    queryFn: ({ signal }) =>
      http
        .get('/api/merchant/contact', { signal, query: { lang: language }, schema: ContactResponseSchema })
        .then((r) => r.data),
    staleTime: 5 * 60_000,
  });

/** GET /api/merchant/contact: the support channels, their hours in the console's language. */
export const useContact = (language: string) => useQuery(contactQueryOptions(language));
