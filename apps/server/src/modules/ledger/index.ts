import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { fundsRoutes } from './funds.routes.ts';
import { createFundsService } from './funds.service.ts';
import { fundFlowsList } from './fund-flows.list.ts';
import { listRoutes } from '../lists/index.ts';
import { createLedger } from './ledger.service.ts';

export { createLedger, type Ledger } from './ledger.service.ts';
export type {
  CaptureInput,
  CaptureResult,
  CloseHoldInput,
  HoldInStatement,
  HoldInput,
  HoldManyInStatement,
  HoldResult,
  PostInput,
  PostResult,
  ReleaseResult,
} from './ledger.service.ts';
export type { FundFlowRow, HoldRow } from './ledger.repository.ts';
export type { FundFlowFilter } from './fund-flows.repository.ts';
export { closeFundFlowDays, closeFundFlowMinutes } from './funds.service.ts';
export { fundFlowsList } from './fund-flows.list.ts';
export { HoldClosedError, InsufficientFundsError, LedgerUsageError, sqlStateOf } from './ledger.errors.ts';
export { transactionWithRetry } from './transaction.ts';
export {
  trialBalance,
  verifyLedger,
  type LedgerProblem,
  type LedgerReport,
  type TrialBalance,
} from './ledger-verify.ts';

/** The double-entry ledger: accounts, journal entries, holds, fund flows, and the console's funds API. */
export function registerLedgerModule(app: FastifyInstance, { db, guards }: AppContext): void {
  listRoutes(app, { db, guards }, [fundFlowsList]);
  fundsRoutes(app, { funds: createFundsService({ db, ledger: createLedger() }), guards });
}
