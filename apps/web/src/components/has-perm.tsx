import type { ReactNode } from 'react';
import type { Perm } from '@paydesk/shared/auth/roles.ts';
import { useCurrentUser } from '../lib/auth/get-current-user.ts';

/** Whether the signed-in user holds every one of the permissions (from GET /api/merchant/user). */
export function useHasPerm(perm: Perm | readonly Perm[]): boolean {
  const perms = useCurrentUser()?.perms ?? [];
  return (Array.isArray(perm) ? perm : [perm]).every((p) => perms.includes(p));
}

/**
 * Shows its children only to users with the permission. It only hides: the server refuses the call
 * anyway (DESIGN section 7).
 */
export function HasPerm({
  perm,
  children,
  fallback = null,
}: {
  perm: Perm | readonly Perm[];
  children: ReactNode;
  fallback?: ReactNode;
}) {
  return useHasPerm(perm) ? children : fallback;
}
