import type { PaymentProblem } from '@paydesk/shared/channels/reconciliation.schemas.ts';
import { tradeNoInReference } from '@paydesk/shared/channels/reconciliation.schemas.ts';
import { localDate } from '@paydesk/shared/time-zone.ts';
import type { Tx } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import type { ChannelRow, ReceivedPayment } from '../channels/index.ts';
import type { CollectionsService } from '../collections/index.ts';
import { reconciliationRepository as repo } from './reconciliation.repository.ts';

// One payment the bank received on a channel's account, applied once (DESIGN 13): recorded by (channel,
// the bank's transaction id) first, so a notification and a statement line of the same payment racing
// each other wait on that key and only the first applies it. Then matched by the trade_no in its
// reference: the exact amount of an unpaid order pays it; any other case is kept for the reconciliation
// (unknown: no order of ours; review: the amount differs, the order could not be paid, or it was paid).

export type PaymentSource =
  { kind: 'notification'; at: Date } | { kind: 'statement'; importId: number; businessDate: string };

/** What happened to one payment: applied now, kept for review or as unknown, or seen before. */
export type ReceiveOutcome = 'matched' | 'review' | 'unknown' | 'seen';

export async function receivePayment(
  tx: Tx,
  collections: Pick<CollectionsService, 'finishIn' | 'findAnyIn'>,
  channel: ChannelRow,
  zone: string,
  payment: ReceivedPayment,
  source: PaymentSource,
): Promise<ReceiveOutcome> {
  // The order first, so the payment is written once with its outcome (a statement has many lines).
  const tradeNo = tradeNoInReference(payment.reference);
  const found = tradeNo ? await collections.findAnyIn(tx, tradeNo) : undefined;
  // Only an order of this channel: the money is on this channel's account.
  const order = found && found.channelId === channel.id ? found : undefined;
  const problem: PaymentProblem | null = !order
    ? null
    : order.amountMinor !== payment.amountMinor
      ? 'amount_differs'
      : order.status === 'paid'
        ? 'already_paid'
        : order.status !== 'to_be_paid'
          ? 'not_payable'
          : null;
  const outcome: Exclude<ReceiveOutcome, 'seen'> = !order ? 'unknown' : problem ? 'review' : 'matched';
  // The payment's key is taken first: a second arrival of the same payment (a notification racing its
  // statement line) waits here for the first to commit, then finds it and applies nothing.
  const saved = await repo.insertPayment(tx, {
    merchantId: channel.merchantId,
    channelId: channel.id,
    txnId: payment.txnId,
    reference: payment.reference,
    amountMinor: payment.amountMinor,
    currency: payment.currency,
    paidAt: payment.paidAt,
    businessDate: source.kind === 'statement' ? source.businessDate : localDate(payment.paidAt, zone),
    payer: payment.payer ?? null,
    notifiedAt: source.kind === 'notification' ? source.at : null,
    statementImportId: source.kind === 'statement' ? source.importId : null,
    collectionId: order?.id ?? null,
    status: outcome,
    problem,
  });
  if (!saved) {
    const existing = await repo.findPayment(tx, channel.id, payment.txnId);
    if (existing)
      await repo.markSeen(
        tx,
        existing.id,
        source.kind === 'statement' ? { statementImportId: source.importId } : { notifiedAt: source.at },
      );
    return 'seen';
  }
  if (outcome !== 'matched' || !order) return outcome;
  try {
    await collections.finishIn(tx, order.tradeNo, 'paid', payment.txnId, payment.paidAt, order);
  } catch (error) {
    // Expired before the payer paid, or paid meanwhile by something else: a difference to decide.
    if (!(error instanceof AppError && error.status === 409)) throw error;
    await repo.setOutcome(tx, saved.id, { status: 'review', problem: 'not_payable', collectionId: order.id });
    return 'review';
  }
  return 'matched';
}
