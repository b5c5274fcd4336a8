import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { createOperatorGuard } from '../ops/index.ts';
import { limitsConsoleRoutes, limitsOpsRoutes } from './limits.routes.ts';
import { createLimitsService } from './limits.service.ts';

export * from './limits.schemas.ts';
export {
  blocked,
  limitExceeded,
  createLimitsService,
  type LimitsService,
  normaliseBlockValue,
  type OrderToCheck,
} from './limits.service.ts';

/**
 * Limits and risk rules (DESIGN 14): operators set them (/ops/v1/limits, /ops/v1/blocks); payouts,
 * withdrawals and collections call `limits.enforce` in the transaction that creates the order; the console
 * reads what applies (GET /api/merchant/limits). Register it before those modules and hand them `limits`;
 * call `opsRoutes()` after the ops module (which checks every /ops/v1 route names its scope).
 */
export function registerLimitsModule(app: FastifyInstance, ctx: AppContext) {
  const limits = createLimitsService({ db: ctx.db, now: ctx.now });
  limitsConsoleRoutes(app, { limits, guards: ctx.guards });
  const opsRoutes = () =>
    limitsOpsRoutes(app, { limits, operator: createOperatorGuard({ db: ctx.db, now: ctx.now }) });
  return { limits, opsRoutes };
}
