import type { FastifyInstance } from 'fastify';
import { type AppContext, orderServiceContext } from '../../context.ts';
import type { CallbacksService } from '../callbacks/index.ts';
import type { CollectionsService } from '../collections/index.ts';
import type { GatewayScope } from '../gateway/index.ts';
import { createLedger } from '../ledger/index.ts';
import { listRoutes } from '../lists/index.ts';
import { createOperatorGuard } from '../ops/index.ts';
import { refundsConsoleRoutes, refundsGatewayRoutes, refundsOpsRoutes } from './refunds.routes.ts';
import { createRefundsService } from './refunds.service.ts';
import { refundsList } from './refunds.list.ts';

export type { RefundRow } from './refunds.repository.ts';
export { refundsList } from './refunds.list.ts';
export { type RefundsService, refundView } from './refunds.service.ts';
/** The demo seed's history: refunds written as they ended. */
export { seedRefundRow } from './refunds.service.ts';

/** Refunds of paid collections (DESIGN 14): the console's action and list, the gateway's calls, the ledger's holds. */
export function registerRefundsModule(
  app: FastifyInstance,
  ctx: AppContext,
  { callbacks, collections }: { callbacks: CallbacksService; collections: CollectionsService },
) {
  const refunds = createRefundsService({
    ...orderServiceContext(ctx),
    callbacks,
    collections,
    ledger: createLedger(),
  });
  listRoutes(app, ctx, [refundsList]);
  refundsConsoleRoutes(app, { refunds, guards: ctx.guards, db: ctx.db, appKey: ctx.config.appKey });
  refundsOpsRoutes(app, { refunds, operator: createOperatorGuard({ db: ctx.db, now: ctx.now }) });
  return {
    refunds,
    gatewayRoutes: (gateway: GatewayScope) => refundsGatewayRoutes(gateway, { refunds }),
  };
}
