import type { FastifyInstance } from 'fastify';
import { type AppContext, orderServiceContext } from '../../context.ts';
import type { CallbacksService } from '../callbacks/index.ts';
import type { GatewayScope } from '../gateway/index.ts';
import type { LimitsService } from '../limits/index.ts';
import { createLedger } from '../ledger/index.ts';
import { payoutsConsoleRoutes, payoutsGatewayRoutes } from './payouts.routes.ts';
import { createPayoutsService } from './payouts.service.ts';
import { payoutsList } from './payouts.list.ts';
import { listRoutes } from '../lists/index.ts';

export type { PayoutRow } from './payouts.repository.ts';
export { payoutsList } from './payouts.list.ts';
export {
  deleteExpiredPayoutKeys,
  type IdempotencyInput,
  keyedCreate,
  type PayoutsService,
  seedPayoutRow,
  type StoredAnswer,
  type TransactionHooks,
} from './payouts.service.ts';
// A signed call's Idempotency-Key and its stored answer (refunds use them as payouts do).
export { idempotencyOf, sendStoredAnswer } from './payouts.routes.ts';
export { DEMO_PAYEES } from './demo-payees.ts';

/** Send money: payouts from the console and the gateway, their life cycle, ledger entries and callbacks. */
export function registerPayoutsModule(
  app: FastifyInstance,
  ctx: AppContext,
  { callbacks, limits }: { callbacks: CallbacksService; limits: LimitsService },
) {
  const payouts = createPayoutsService({
    ...orderServiceContext(ctx),
    callbacks,
    ledger: createLedger(),
    limits,
    notifications: ctx.notifications,
    ...(ctx.random ? { random: ctx.random } : {}),
  });
  listRoutes(app, ctx, [payoutsList]);
  payoutsConsoleRoutes(app, {
    payouts,
    callbacks,
    guards: ctx.guards,
    db: ctx.db,
    appKey: ctx.config.appKey,
    adapterSettings: { sandboxEnabled: ctx.config.sandboxEnabled },
  });
  return {
    payouts,
    gatewayRoutes: (gateway: GatewayScope) => payoutsGatewayRoutes(gateway, { payouts }),
  };
}
