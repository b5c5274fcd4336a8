import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { createLedger } from '../ledger/index.ts';
import type { LimitsService } from '../limits/index.ts';
import { withdrawalsConsoleRoutes } from './withdrawals.routes.ts';
import { createWithdrawalsService } from './withdrawals.service.ts';
import { withdrawalsList } from './withdrawals.list.ts';
import { listRoutes } from '../lists/index.ts';

export type { WithdrawalRow } from './withdrawals.repository.ts';
export { withdrawalsList } from './withdrawals.list.ts';
export {
  createWithdrawalsService,
  type Decision,
  holdWithdrawal,
  seedWithdrawalRow,
  type WithdrawalsService,
} from './withdrawals.service.ts';

/** Withdrawals: the merchant's requests to a USDT wallet, their holds, and the operator's decisions. */
export function registerWithdrawalsModule(
  app: FastifyInstance,
  ctx: AppContext,
  { limits }: { limits: LimitsService },
) {
  const withdrawals = createWithdrawalsService({
    db: ctx.db,
    ledger: createLedger(),
    settings: ctx.config.withdrawals,
    now: ctx.now,
    limits,
  });
  listRoutes(app, ctx, [withdrawalsList]);
  withdrawalsConsoleRoutes(app, {
    withdrawals,
    guards: ctx.guards,
    db: ctx.db,
    appKey: ctx.config.appKey,
  });
  return { withdrawals };
}
