import { ERROR_CODES } from '@paydesk/shared';
import { AppError } from '../../lib/errors.ts';

export const INSUFFICIENT_FUNDS_MESSAGE = 'Insufficient available balance.';

/** 422 {message, code: "insufficient_funds", errors: {amount: [...]}}: the form's amount is the problem. */
export class InsufficientFundsError extends AppError {
  readonly errors: Record<string, string[]>;
  constructor(message: string = INSUFFICIENT_FUNDS_MESSAGE) {
    super(422, message, { code: ERROR_CODES.insufficientFunds });
    this.errors = { amount: [message] };
  }
}

/** A capture or release of a hold that another cause already closed. */
export class HoldClosedError extends AppError {
  constructor(status: string) {
    super(409, `The hold is already ${status}.`, { code: ERROR_CODES.invalidTransition });
  }
}

/** A caller broke the ledger's contract (wrong sign, reused key): a bug, answered as a 500. */
export class LedgerUsageError extends Error {}

export { sqlStateOf } from '../../db/sql-state.ts';
