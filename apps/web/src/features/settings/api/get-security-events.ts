import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  type SecurityEventItem,
  SecurityEventListResponseSchema,
  type SecurityEventsQuery,
} from '@paydesk/shared/security/security.schemas.ts';
import { http } from '../../../lib/http.ts';

export type { SecurityEventItem, SecurityEventsQuery };

export const securityEventsQueryKey = ['merchant', 'security-events'] as const;

/** GET /api/merchant/security-events: ROOT gets the whole merchant's log, others their own. */
export const securityEventsQueryOptions = (filter: SecurityEventsQuery) =>
  queryOptions({
    queryKey: [...securityEventsQueryKey, filter],
    queryFn: ({ signal }) =>
      http.get('/api/merchant/security-events', {
        signal,
        query: filter,
        schema: SecurityEventListResponseSchema,
      }),
    placeholderData: keepPreviousData,
  });

export const useSecurityEvents = (filter: SecurityEventsQuery) =>
  useQuery(securityEventsQueryOptions(filter));
