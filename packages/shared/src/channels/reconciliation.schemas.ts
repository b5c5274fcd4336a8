// Money received into the platform's accounts and its reconciliation (DESIGN 13): the words the database's
// checks, the operator API and the command line share.

/** matched: paid its order; unknown: no order of ours; review: a difference an operator decides; resolved. */
export const RECEIVED_PAYMENT_STATUSES = ['matched', 'unknown', 'review', 'resolved'] as const;
export type ReceivedPaymentStatus = (typeof RECEIVED_PAYMENT_STATUSES)[number];

/**
 * Why a payment with a known reference was not applied: amount_differs (never paid straight), not_payable
 * (the order had closed, failed or expired), already_paid (a second payment of a paid order).
 */
export const PAYMENT_PROBLEMS = ['amount_differs', 'not_payable', 'already_paid'] as const;
export type PaymentProblem = (typeof PAYMENT_PROBLEMS)[number];

export const STATEMENT_FORMATS = ['csv', 'mt940', 'camt053'] as const;
export type StatementFormat = (typeof STATEMENT_FORMATS)[number];

export const RESOLUTION_ACTIONS = ['mark_paid', 'refund_to_payer', 'ledger_adjustment'] as const;
export type ResolutionAction = (typeof RESOLUTION_ACTIONS)[number];

/** Our orders' numbers inside a payer's free text: a collection's trade_no (C and 23 digits). */
export const TRADE_NO_IN_TEXT = /C\d{23}/;

/** The trade_no a payer's reference names, read leniently: spaces, dashes and case do not matter. */
export function tradeNoInReference(reference: string): string | null {
  const squeezed = reference.toUpperCase().replace(/[^A-Z0-9]/g, '');
  return TRADE_NO_IN_TEXT.exec(squeezed)?.[0] ?? null;
}
