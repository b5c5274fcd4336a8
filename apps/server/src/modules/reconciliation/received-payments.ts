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

/** How a payment stands against the order its reference names (before anything is written). */
function judge(
  order: { id: number; status: string; amountMinor: bigint; expiresAt: Date } | undefined,
  payment: Pick<ReceivedPayment, 'amountMinor' | 'paidAt'>,
): { outcome: Exclude<ReceiveOutcome, 'seen'>; problem: PaymentProblem | null } {
  if (!order) return { outcome: 'unknown', problem: null };
  const problem: PaymentProblem | null =
    order.amountMinor !== payment.amountMinor
      ? 'amount_differs'
      : order.status === 'paid'
        ? 'already_paid'
        : order.status !== 'to_be_paid' || order.expiresAt <= payment.paidAt
          ? 'not_payable'
          : null;
  return { outcome: problem ? 'review' : 'matched', problem };
}

/** Lines of a statement applied together (DESIGN 8: a statement is large; one line at a time is slow). */
const STATEMENT_BATCH = 2000;

/**
 * A statement's lines applied in batches, in the caller's transaction, with the same rules as
 * receivePayment: each batch reads its orders once, writes its payments in one insert (a transaction id
 * received before is only marked as listed), and pays its matched orders in one update with their attempts
 * and callbacks; their rollups are counted once, after the last batch. Two lines of one order in a file:
 * the second is kept as already paid.
 */
export async function receiveStatementLines(
  tx: Tx,
  collections: Pick<CollectionsService, 'ofChannelIn' | 'payManyIn' | 'paidRollups'>,
  channel: ChannelRow,
  lines: ReceivedPayment[],
  statement: { importId: number; businessDate: string },
): Promise<Record<ReceiveOutcome, number>> {
  const counts: Record<ReceiveOutcome, number> = { matched: 0, review: 0, unknown: 0, seen: 0 };
  const claimed = new Set<number>();
  const rollups = collections.paidRollups();
  for (let start = 0; start < lines.length; start += STATEMENT_BATCH) {
    const batch = lines.slice(start, start + STATEMENT_BATCH);
    const tradeNos = batch.map((line) => tradeNoInReference(line.reference));
    const orders = new Map(
      (await collections.ofChannelIn(tx, channel.id, [...new Set(tradeNos.filter((t) => t !== null))])).map(
        (o) => [o.tradeNo, o],
      ),
    );
    const judged = batch.map((line, i) => {
      const order = tradeNos[i] ? orders.get(tradeNos[i]) : undefined;
      const verdict = judge(order, line);
      // A second exact payment of one order in the same file pays nothing more.
      if (verdict.outcome === 'matched' && order && claimed.has(order.id))
        return { line, order, outcome: 'review' as const, problem: 'already_paid' as const };
      if (verdict.outcome === 'matched' && order) claimed.add(order.id);
      return { line, order, ...verdict };
    });
    const written = await repo.insertPayments(
      tx,
      judged.map(({ line, order, outcome, problem }) => ({
        merchantId: channel.merchantId,
        channelId: channel.id,
        txnId: line.txnId,
        reference: line.reference,
        amountMinor: line.amountMinor,
        currency: line.currency,
        paidAt: line.paidAt,
        businessDate: statement.businessDate,
        payer: line.payer ?? null,
        statementImportId: statement.importId,
        collectionId: order?.id ?? null,
        status: outcome,
        problem,
      })),
    );
    const writtenIds = new Map(written.map((w) => [w.txn_id, w.id]));
    const seen = judged.filter((j) => !writtenIds.has(j.line.txnId));
    await repo.markListed(
      tx,
      channel.id,
      seen.map((j) => j.line.txnId),
      statement.importId,
    );
    counts.seen += seen.length;
    const fresh = judged.filter((j) => writtenIds.has(j.line.txnId));
    const toPay = fresh.filter((j) => j.outcome === 'matched' && j.order);
    const paid = new Set(
      (
        await collections.payManyIn(
          tx,
          channel.merchantId,
          toPay.map((j) => ({ order: j.order!, channelRef: j.line.txnId })),
          rollups,
        )
      ).map((row) => row.id),
    );
    const raced = toPay.filter((j) => !paid.has(j.order!.id));
    await repo.markNotPayable(
      tx,
      raced.map((j) => writtenIds.get(j.line.txnId)!),
    );
    for (const j of fresh) counts[raced.includes(j) ? 'review' : j.outcome] += 1;
  }
  // Last, where the orders' row triggers would have counted them at the commit.
  await rollups.apply(tx);
  return counts;
}

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
  const { outcome, problem } = judge(order, payment);
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
