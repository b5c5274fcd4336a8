// What an operator token may do (DESIGN 9 and 10). A token lists its scopes; none implies another, so a
// token made to approve top-ups cannot move funds, and one made to mint tokens cannot move funds either.

export const OPERATOR_SCOPES = [
  /** Lists and shows: merchants, channels, top-ups and their screenshots, withdrawals, the ledger checks. */
  'read',
  /** Review decisions: approve or reject a top-up; approve, pay or reject a withdrawal. */
  'review',
  /** Moves money: transfers, freezes, settlement runs, finishing sandbox orders, demo traffic. */
  'funds',
  /** Administration: merchants, users, channels, and operator tokens (only admin mints, lists, revokes). */
  'admin',
] as const;
export type OperatorScope = (typeof OPERATOR_SCOPES)[number];

/** A new token's life when none is asked for, and the longest one may ask for. */
export const OPERATOR_TOKEN_DEFAULT_DAYS = 90;
export const OPERATOR_TOKEN_MAX_DAYS = 365;
