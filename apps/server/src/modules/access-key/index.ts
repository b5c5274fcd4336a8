import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { accessKeys } from '../../db/schema/index.ts';
import { authOf } from '../../plugins/require-auth.ts';

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
      const [row] = await db
        .select({
          accessKey: accessKeys.accessKey,
          createdAt: accessKeys.createdAt,
          rotatedAt: accessKeys.rotatedAt,
        })
        .from(accessKeys)
        .where(eq(accessKeys.merchantId, merchant.id));
      return {
        data: row
          ? {
              access_key: row.accessKey,
              created_at: row.createdAt.toISOString(),
              rotated_at: row.rotatedAt?.toISOString() ?? null,
            }
          : null,
      };
    },
  );
}
