import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { createLedger } from '../ledger/index.ts';
import { createOperatorGuard } from '../ops/index.ts';
import { rechargesConsoleRoutes, rechargesOpsRoutes } from './recharges.routes.ts';
import { createRechargesService } from './recharges.service.ts';
import { rechargesList } from './recharges.list.ts';
import { listRoutes } from '../lists/index.ts';

export { type RechargesService } from './recharges.service.ts';
export { rechargesList } from './recharges.list.ts';
export type { RechargeRow } from './recharges.repository.ts';
export { cleanScreenshot } from './clean-screenshot.ts';

/** Top-ups: the console's form and history, the screenshot rules, and the operator's review. */
export function registerRechargesModule(app: FastifyInstance, ctx: AppContext) {
  const recharges = createRechargesService({
    db: ctx.db,
    storage: ctx.storage,
    ledger: createLedger(),
    now: ctx.now,
    topup: ctx.config.topup,
  });
  listRoutes(app, ctx, [rechargesList]);
  rechargesConsoleRoutes(app, { recharges, guards: ctx.guards });
  rechargesOpsRoutes(app, { recharges, operator: createOperatorGuard({ db: ctx.db, now: ctx.now }) });
  return recharges;
}
export { seedDemoTopups } from './demo-topups.ts';
