import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';

export { createLedger, type Ledger } from './ledger.service.ts';
export type {
  CaptureResult,
  CloseHoldInput,
  HoldInput,
  HoldResult,
  PostInput,
  PostResult,
  ReleaseResult,
} from './ledger.service.ts';
export type { FundFlowRow, HoldRow } from './ledger.repository.ts';
export { HoldClosedError, InsufficientFundsError, LedgerUsageError } from './ledger.errors.ts';
export { transactionWithRetry } from './transaction.ts';
export { verifyLedger, type LedgerProblem, type LedgerReport } from './ledger-verify.ts';

/** The ledger: balances, holds, fund flows, and the console's funds API. */
export function registerLedgerModule(_app: FastifyInstance, _ctx: AppContext): void {
  // The console's funds routes are added with the funds API.
}
