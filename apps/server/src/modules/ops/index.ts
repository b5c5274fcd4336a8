import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';

/** The operator API (/ops/v1), authenticated by operator tokens (DESIGN section 10). */
export function registerOpsModule(_app: FastifyInstance, _ctx: AppContext): void {
  // Routes are added here as the ledger issue lands.
}
