import type { FastifyRequest } from 'fastify';
import type { DbOrTx } from '../../db/client.ts';
import { securityEvents } from '../../db/schema/index.ts';

export type SecurityEventType =
  | 'login'
  | 'login_failed'
  | 'logout'
  | 'two_factor_challenge_failed'
  | 'two_factor_enabled'
  | 'two_factor_disabled'
  | 'recovery_codes_viewed'
  | 'recovery_codes_regenerated'
  | 'recovery_code_used'
  | 'password_changed'
  | 'payment_password_set'
  | 'payment_password_changed'
  | 'payment_password_locked'
  | 'profile_updated'
  | 'other_sessions_ended';

export const securityEventsRepository = {
  record: async (
    db: DbOrTx,
    request: FastifyRequest | null,
    event: {
      type: SecurityEventType;
      merchantId: number | null;
      userId: number | null;
      detail?: Record<string, unknown>;
    },
  ): Promise<void> => {
    await db.insert(securityEvents).values({
      type: event.type,
      merchantId: event.merchantId,
      userId: event.userId,
      detail: event.detail ?? null,
      ip: request?.ip ?? null,
      userAgent: request?.headers['user-agent']?.slice(0, 500) ?? null,
    });
  },
};
