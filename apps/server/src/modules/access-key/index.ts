import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { authOf } from '../../plugins/auth-context.ts';
import { accessKeysRepository } from './access-keys.repository.ts';

/**
 * The merchant's access key (ROOT only). Showing the secret and regenerating it need the step-up check
 * and come with the gateway work; this answers the key itself, or null when none was issued yet.
 */
export function registerAccessKeyModule(app: FastifyInstance, { db, guards }: AppContext): void {
  app.get(
    '/api/merchant/access-key',
    { preHandler: guards.requirePerm('access-key:manage') },
    async (request) => {
      const { merchant } = authOf(request);
      const row = await accessKeysRepository.findPublic(db, merchant.id);
      return {
        data: row
          ? {
              merchant_no: merchant.no,
              access_key: row.accessKey,
              notify_url: row.notifyUrl,
              created_at: row.createdAt.toISOString(),
              rotated_at: row.rotatedAt?.toISOString() ?? null,
            }
          : null,
      };
    },
  );
}
