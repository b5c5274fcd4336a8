import { randomInt } from 'node:crypto';
import { parse as parseCsv } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { type Currency, ERROR_CODES, fromMinor } from '@paydesk/shared';
import type { Db } from '../../db/client.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import { AppError, conflict, notFound, ValidationError } from '../../lib/errors.ts';
import { adapterFor, type BatchLayout, type ChannelRow, isLeftForReview } from '../channels/index.ts';
import type { ActionContext } from '../ops/index.ts';
import { claimOperatorAction } from '../ops/index.ts';
import type { PayoutsService } from '../payouts/index.ts';
import { type BatchPayoutRow, payoutBatchesRepository as repo } from './payout-batches.repository.ts';

// Payouts the platform's staff pay through their own bank (DESIGN 13, a channel whose adapter has a batch
// layout). They wait in the operator's queue (pending); payout:batch-export writes the bank's file in the
// channel's columns and moves what it lists to processing under the batch's number; the bank's result
// file (payout:batch-import), or an operator one by one (payout:mark-paid, payout:mark-failed), ends each
// one. Every step is idempotent: a payout already where the step would put it is left as it is.

type Deps = { db: Db; now: () => Date; payouts: Pick<PayoutsService, 'transition'> };

export type PayoutBatchesService = ReturnType<typeof createPayoutBatchesService>;

const MAX_BATCH = 5000;

const fieldOf: Record<BatchLayout['columns'][number]['field'], (p: BatchPayoutRow) => string> = {
  trade_no: (p) => p.tradeNo,
  amount: (p) => fromMinor(p.amountMinor, p.currency as Currency),
  currency: (p) => p.currency,
  account_type: (p) => p.accountType,
  account_name: (p) => p.payeeName,
  account_no: (p) => p.accountNo,
  bank_code: (p) => p.bankCode ?? '',
  bank_name: (p) => p.bankName ?? '',
  branch: (p) => p.branchName ?? '',
  ifsc: (p) => p.ifsc ?? '',
  cpf_cnpj: (p) => p.cpfCnpj ?? '',
  created_at: (p) => p.createdAt.toISOString(),
};

export function createPayoutBatchesService({ db, now, payouts }: Deps) {
  /** The merchant row's payout channel of that code, and its batch layout (409 when it has none). */
  async function batchChannel(
    merchantId: number,
    code: string,
  ): Promise<{ channel: ChannelRow; layout: BatchLayout }> {
    const channel = await repo.channel(db, merchantId, code);
    if (!channel) throw notFound(`The merchant has no payout channel ${code}.`);
    const layout = adapterFor(channel.provider).batchLayout?.(channel);
    if (!layout)
      throw conflict(
        `The payout channel ${code} pays by itself, not by batch files.`,
        ERROR_CODES.notBatchChannel,
      );
    return { channel, layout };
  }

  /**
   * The payout channel an operator ends one payout of: a batch channel's, or any channel's payout that
   * routing left for review (its provider may have it: DESIGN 14).
   */
  async function channelToEnd(merchantId: number, code: string, tradeNo: string): Promise<ChannelRow> {
    const channel = await repo.channel(db, merchantId, code);
    if (channel && !adapterFor(channel.provider).batchLayout?.(channel)) {
      const row = await repo.byTradeNo(db, tradeNo);
      if (row && row.channelId === channel.id && (await isLeftForReview(db, row))) return channel;
    }
    return (await batchChannel(merchantId, code)).channel;
  }

  const render = (layout: BatchLayout, rows: BatchPayoutRow[]) =>
    stringify(
      rows.map((p) => layout.columns.map((c) => fieldOf[c.field](p))),
      { header: true, columns: layout.columns.map((c) => c.header), bom: false },
    );

  /**
   * payout:batch-export: the channel's pending payouts (up to 5,000, oldest first) moved to processing
   * under a new batch number, and the bank's file listing them. With `batchNo`, the file of that batch
   * again (nothing moves).
   */
  async function exportBatch(
    input: { merchantId: number; channel: string; batchNo?: string },
    context: ActionContext,
  ) {
    const { channel, layout } = await batchChannel(input.merchantId, input.channel);
    if (input.batchNo) {
      const rows = await repo.ofBatch(db, channel.id, input.batchNo);
      if (rows.length === 0) throw notFound(`No batch ${input.batchNo} on ${channel.code}.`);
      return {
        batch_no: input.batchNo,
        count: rows.length,
        total: total(rows, channel),
        csv: render(layout, rows),
      };
    }
    const at = now();
    const batchNo = `B${at
      .toISOString()
      .replace(/[-:TZ.]/g, '')
      .slice(0, 14)}${String(randomInt(0, 1000)).padStart(3, '0')}`;
    const moved: BatchPayoutRow[] = [];
    for (const row of await repo.pending(db, channel.id, MAX_BATCH)) {
      try {
        moved.push(await payouts.transition(row.tradeNo, 'processing', null, batchNo));
      } catch (error) {
        // Cancelled or rejected meanwhile: not in this batch.
        if (!(error instanceof AppError && error.status === 409)) throw error;
      }
    }
    await record(
      context,
      'payout.batch_export',
      {
        merchant_id: input.merchantId,
        channel: channel.code,
        batch_no: batchNo,
        trade_nos: moved.map((p) => p.tradeNo),
      },
      channel.merchantId,
    );
    return {
      batch_no: batchNo,
      count: moved.length,
      total: total(moved, channel),
      csv: render(layout, moved),
    };
  }

  const total = (rows: BatchPayoutRow[], channel: ChannelRow) =>
    fromMinor(
      rows.reduce((sum, p) => sum + p.amountMinor, 0n),
      channel.currency as Currency,
    );

  async function record(
    context: ActionContext,
    action: string,
    detail: Record<string, unknown>,
    merchantId: number,
  ) {
    await db.transaction((tx) =>
      claimOperatorAction(tx, {
        operatorName: context.operator.name,
        action,
        merchantId,
        reason: context.reason,
        idempotencyKey: null,
        detail: { request: detail },
      }),
    );
  }

  type Outcome = {
    tradeNo: string;
    result: 'paid' | 'failed';
    bankReference: string | null;
    reason: string | null;
  };

  /** One payout ended by the bank: paid (with its reference) or failed (with its reason, the hold released). */
  async function finishOne(channel: ChannelRow, outcome: Outcome): Promise<'done' | 'already'> {
    const row = await repo.byTradeNo(db, outcome.tradeNo);
    if (!row || row.channelId !== channel.id)
      throw notFound(`No payout ${outcome.tradeNo} on ${channel.code}.`);
    const target = outcome.result === 'paid' ? 'success' : 'failed';
    if (row.status === target) return 'already';
    if (row.status !== 'pending' && row.status !== 'processing')
      throw conflict(
        `The payout ${row.tradeNo} is ${row.status}; it cannot become ${target}.`,
        ERROR_CODES.invalidTransition,
      );
    if (row.status === 'pending')
      await payouts.transition(row.tradeNo, 'processing', null, outcome.bankReference ?? undefined);
    await payouts.transition(
      row.tradeNo,
      target,
      target === 'failed' ? (outcome.reason ?? 'The bank returned the payout.') : null,
      outcome.bankReference ?? undefined,
    );
    return 'done';
  }

  async function markPaid(
    input: { merchantId: number; channel: string; tradeNo: string; bankReference: string },
    context: ActionContext,
  ) {
    const channel = await channelToEnd(input.merchantId, input.channel, input.tradeNo);
    const result = await finishOne(channel, {
      tradeNo: input.tradeNo,
      result: 'paid',
      bankReference: input.bankReference,
      reason: null,
    });
    await record(
      context,
      'payout.mark_paid',
      { trade_no: input.tradeNo, bank_reference: input.bankReference },
      channel.merchantId,
    );
    return { trade_no: input.tradeNo, status: 'success', changed: result === 'done' };
  }

  async function markFailed(
    input: { merchantId: number; channel: string; tradeNo: string; failure: string },
    context: ActionContext,
  ) {
    const channel = await channelToEnd(input.merchantId, input.channel, input.tradeNo);
    const result = await finishOne(channel, {
      tradeNo: input.tradeNo,
      result: 'failed',
      bankReference: null,
      reason: input.failure,
    });
    await record(
      context,
      'payout.mark_failed',
      { trade_no: input.tradeNo, failure: input.failure },
      channel.merchantId,
    );
    return { trade_no: input.tradeNo, status: 'failed', changed: result === 'done' };
  }

  /** The bank's result file read whole: a line it cannot read, or a payout not of this channel, refuses it. */
  function readResult(layout: BatchLayout, content: Buffer): Outcome[] {
    const text = new TextDecoder('utf-8', { fatal: false }).decode(content).replace(/^\uFEFF/, '');
    let records: Record<string, string>[];
    try {
      records = parseCsv(text, { columns: true, skip_empty_lines: true, trim: true });
    } catch (error) {
      const { lines } = error as { lines?: number };
      throw ValidationError.field(
        'file',
        `Line ${lines ?? '?'}: the file is not well-formed CSV (${(error as Error).message}).`,
        ERROR_CODES.statementInvalid,
      );
    }
    const refuse = (line: number, reason: string) =>
      ValidationError.field('file', `Line ${line}: ${reason}`, ERROR_CODES.statementInvalid);
    const { result } = layout;
    const first = records[0];
    for (const header of [result.tradeNo, result.status]) {
      if (!first || !(header in first)) throw refuse(1, `the column "${header}" is missing.`);
    }
    const seen = new Set<string>();
    return records.map((r, i) => {
      const line = i + 2;
      const tradeNo = r[result.tradeNo] ?? '';
      if (!/^P\d{8,40}$/.test(tradeNo)) throw refuse(line, `"${tradeNo}" is not a payout number (P...).`);
      if (seen.has(tradeNo)) throw refuse(line, `the payout ${tradeNo} is listed twice.`);
      seen.add(tradeNo);
      const status = (r[result.status] ?? '').toUpperCase();
      const paid = result.paidValues.includes(status);
      if (!paid && !result.failedValues.includes(status))
        throw refuse(
          line,
          `the status "${r[result.status]}" is none of ${[...result.paidValues, ...result.failedValues].join(', ')}.`,
        );
      return {
        tradeNo,
        result: paid ? 'paid' : 'failed',
        bankReference: r[result.bankReference] || null,
        reason: r[result.reason] || null,
      };
    });
  }

  /**
   * payout:batch-import: the bank's result file, checked whole first (every payout of this channel, each in
   * a state the file can end), then each payout ended; one ended already is left as it is, so the same file
   * again changes nothing.
   */
  async function importResult(
    input: { merchantId: number; channel: string; fileName: string; content: Buffer },
    context: ActionContext,
  ) {
    const { channel, layout } = await batchChannel(input.merchantId, input.channel);
    const outcomes = readResult(layout, input.content);
    for (const [i, outcome] of outcomes.entries()) {
      const row = await repo.byTradeNo(db, outcome.tradeNo);
      const line = i + 2;
      if (!row || row.channelId !== channel.id)
        throw ValidationError.field(
          'file',
          `Line ${line}: no payout ${outcome.tradeNo} on ${channel.code}.`,
          ERROR_CODES.statementInvalid,
        );
      const target = outcome.result === 'paid' ? 'success' : 'failed';
      if (row.status !== target && row.status !== 'pending' && row.status !== 'processing')
        throw ValidationError.field(
          'file',
          `Line ${line}: the payout ${row.tradeNo} is ${row.status}; the file says ${outcome.result}.`,
          ERROR_CODES.statementInvalid,
        );
    }
    let paid = 0;
    let failed = 0;
    let already = 0;
    for (const outcome of outcomes) {
      if ((await finishOne(channel, outcome)) === 'already') already += 1;
      else if (outcome.result === 'paid') paid += 1;
      else failed += 1;
    }
    await record(
      context,
      'payout.batch_import',
      {
        channel: channel.code,
        file_name: input.fileName,
        sha256: sha256Hex(input.content),
        paid,
        failed,
        already,
      },
      channel.merchantId,
    );
    return { channel: channel.code, lines: outcomes.length, paid, failed, already };
  }

  return { exportBatch, importResult, markPaid, markFailed };
}
