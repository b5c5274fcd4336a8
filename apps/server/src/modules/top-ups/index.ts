import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { createLedger } from '../ledger/index.ts';
import { createOperatorGuard } from '../ops/index.ts';
import { topUpsConsoleRoutes, topUpsOpsRoutes } from './top-ups.routes.ts';
import { createTopUpsService } from './top-ups.service.ts';
import { topUpsList } from './top-ups.list.ts';
import { listRoutes } from '../lists/index.ts';

export { type TopUpsService } from './top-ups.service.ts';
export { topUpsList } from './top-ups.list.ts';
export type { TopUpRow } from './top-ups.repository.ts';
export { cleanScreenshot } from './clean-screenshot.ts';

/** Top-ups: the console's form and history, the screenshot rules, and the operator's review. */
export function registerTopUpsModule(app: FastifyInstance, ctx: AppContext) {
  const topUps = createTopUpsService({
    db: ctx.db,
    storage: ctx.storage,
    ledger: createLedger(),
    now: ctx.now,
    topUp: ctx.config.topUp,
  });
  listRoutes(app, ctx, [topUpsList]);
  topUpsConsoleRoutes(app, { topUps, guards: ctx.guards });
  topUpsOpsRoutes(app, { topUps, operator: createOperatorGuard({ db: ctx.db, now: ctx.now }) });
  return topUps;
}
export { seedDemoTopUps } from './demo-top-ups.ts';
