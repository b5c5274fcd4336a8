import type { FastifyInstance } from 'fastify';
import { type AppContext, orderServiceContext } from '../../context.ts';
import type { CallbacksService } from '../callbacks/index.ts';
import type { LimitsService } from '../limits/index.ts';
import type { GatewayScope } from '../gateway/index.ts';
import { createLedger } from '../ledger/index.ts';
import { collectionsConsoleRoutes, collectionsGatewayRoutes } from './collections.routes.ts';
import { createCollectionsService } from './collections.service.ts';
import { createSettlementsService } from './settlements.service.ts';
import { collectionsList } from './collections.list.ts';
import { settlementsList } from './settlements.list.ts';
import { listRoutes } from '../lists/index.ts';

export type { CollectionRow } from './collections.repository.ts';
export { collectionRefundClaim } from './refund-claim.sql.ts';
export { collectionsList } from './collections.list.ts';
export { settlementsList } from './settlements.list.ts';
export {
  attachToSettlement,
  claimCollectionRefund,
  type CollectionsService,
  giveBackCollectionRefund,
  markCollectionsSettled,
  newOrderHead,
  orderGatewayHead,
  newTradeNo,
  seedCollectionRow,
  withFreshTradeNo,
} from './collections.service.ts';
export {
  markSettlementSettled,
  seedSettlementRow,
  settlementCutoff,
  type SettlementsService,
} from './settlements.service.ts';

/** Receive money: collection orders, their settlement batches, and their console and gateway routes. */
export function registerCollectionsModule(
  app: FastifyInstance,
  ctx: AppContext,
  { callbacks, limits }: { callbacks: CallbacksService; limits: LimitsService },
) {
  const collections = createCollectionsService({
    ...orderServiceContext(ctx),
    callbacks,
    publicUrl: ctx.config.publicUrl,
    limits,
    ...(ctx.random ? { random: ctx.random } : {}),
  });
  const settlements = createSettlementsService({
    db: ctx.db,
    ledger: createLedger(),
    now: ctx.now,
    collections,
    adapterSettings: { sandboxEnabled: ctx.config.sandboxEnabled },
  });
  listRoutes(app, ctx, [collectionsList, settlementsList]);
  collectionsConsoleRoutes(app, { collections, settlements, callbacks, guards: ctx.guards });
  return {
    collections,
    settlements,
    gatewayRoutes: (gateway: GatewayScope) => collectionsGatewayRoutes(gateway, { collections }),
  };
}
