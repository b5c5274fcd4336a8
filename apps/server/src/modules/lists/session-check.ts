import { sql } from 'drizzle-orm';
import type { SessionCheck } from '../../plugins/auth-context.ts';

/**
 * A read that carries a remembered session's confirmation (SessionCheck) selects these beside its own
 * columns, from the check's select joined in as `checked`; settleCheck then reads them back.
 */
export const CHECKED_COLUMNS = sql.raw(
  'checked.fingerprint as session_fingerprint, checked.last_active_at as session_active_at',
);

/** Settles the check with what the statement read of the session (none: gone, or the statement failed). */
export function settleCheck(check: SessionCheck, row: Record<string, unknown> | undefined): void {
  check.settle(
    row && {
      fingerprint: row.session_fingerprint as string | null,
      last_active_at: row.session_active_at as Date | string | null,
    },
  );
}
