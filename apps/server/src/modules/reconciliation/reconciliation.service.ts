import { type Currency, ERROR_CODES, fromMinor, toMinor } from '@paydesk/shared';
import type { ResolutionAction, StatementFormat } from '@paydesk/shared/channels/reconciliation.schemas.ts';
import { dayRange } from '@paydesk/shared/time-zone.ts';
import type { Db, Tx } from '../../db/client.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import { AppError, conflict, notFound, ValidationError } from '../../lib/errors.ts';
import {
  adapterFor,
  type ChannelPorts,
  type ChannelRow,
  openChannelSecrets,
  type ReceivedPayment,
} from '../channels/index.ts';
import type { PayoutsService } from '../payouts/index.ts';
import type { CollectionsService } from '../collections/index.ts';
import type { Ledger } from '../ledger/index.ts';
import { transactionWithRetry } from '../ledger/index.ts';
import type { ActionContext, ActionResult } from '../ops/index.ts';
import { runOperatorAction } from '../ops/index.ts';
import { receivePayment, receiveStatementLines, type ReceiveOutcome } from './received-payments.ts';
import { reconciliationRepository as repo } from './reconciliation.repository.ts';
import { type CsvColumns, DEFAULT_CSV_COLUMNS, parseStatement, StatementError } from './statements/parse.ts';

// Money received into the platform's accounts and its reconciliation (DESIGN 13): a provider's signed
// notification (POST /channels/{code}/notify), an operator's statement import, and the reconciliation of a
// channel's day with each difference resolved and the day closed.

type Deps = {
  db: Db;
  now: () => Date;
  appKey: Buffer;
  collections: Pick<
    CollectionsService,
    'finishIn' | 'findAnyIn' | 'finish' | 'findAny' | 'ofChannelIn' | 'payManyIn' | 'paidRollups'
  >;
  payouts: Pick<PayoutsService, 'transition' | 'findAny'>;
  /** Refunds a provider's notification ends (refund.processed and refund.failed: DESIGN 14). */
  refunds: ChannelPorts['refunds'];
  ledger: Pick<Ledger, 'post'>;
};

export type ReconciliationService = ReturnType<typeof createReconciliationService>;

const tally = () => ({ matched: 0, review: 0, unknown: 0, seen: 0 }) satisfies Record<ReceiveOutcome, number>;

export function createReconciliationService({
  db,
  now,
  appKey,
  collections,
  payouts,
  refunds,
  ledger,
}: Deps) {
  const secretsOf = (channel: ChannelRow) => openChannelSecrets(appKey, channel);

  async function zoneOf(merchantId: number): Promise<string> {
    const merchant = await repo.merchant(db, merchantId);
    if (!merchant) throw new Error(`Merchant ${merchantId} is not there.`);
    return merchant.timezone;
  }

  /**
   * A provider's notification to POST /channels/{code}/notify: verified with the secrets of the channel of
   * that code it names (merchants may share a code: the signature says whose), then every order it
   * reports and every payment it lists applied once. 401 when no channel's secret verifies it.
   */
  async function notify(code: string, headers: Record<string, string | undefined>, rawBody: string) {
    const candidates = (await repo.channelsByCode(db, code)).filter((c) => adapterFor(c.provider).notifies);
    if (candidates.length === 0) throw notFound(`No channel ${code} takes notifications.`);
    let reason = 'The signature does not match.';
    for (const channel of candidates) {
      const parsed = adapterFor(channel.provider).parseNotification(
        channel,
        { headers, rawBody },
        secretsOf(channel),
      );
      if (!parsed.verified) {
        reason = parsed.reason;
        continue;
      }
      if (parsed.invalid) throw new ValidationError({ body: [parsed.invalid] });
      const zone = await zoneOf(channel.merchantId);
      const counts = tally();
      const at = now();
      for (const payment of parsed.payments ?? []) {
        const outcome = await transactionWithRetry(db, (tx) =>
          receivePayment(tx, collections, channel, zone, payment, { kind: 'notification', at }),
        );
        counts[outcome] += 1;
      }
      for (const report of parsed.reports) await applyReport(channel, report);
      return { channel: channel.code, ...counts };
    }
    throw new AppError(401, reason, { code: ERROR_CODES.signatureInvalid });
  }

  /**
   * An order's end a provider reported (a payout processed); a repeat is a no-op. One provider account
   * notifies one address for all its channels, so the order may be of another channel: it must be the same
   * merchant's, on a channel of the same provider, or the report is ignored.
   */
  async function applyReport(
    channel: ChannelRow,
    report: { tradeNo: string; providerRef: string | null; outcome: string; reason?: string | null },
  ) {
    if (report.outcome !== 'succeeded' && report.outcome !== 'failed') return;
    const ref = report.providerRef ?? undefined;
    // A refund (our numbers say the kind: refunds R...): ended once, on the same rules of whose it is.
    if (report.tradeNo.startsWith('R')) {
      const refund = await refunds.findAny(report.tradeNo);
      const own = refund && (await repo.channel(db, refund.channelId));
      if (!own || own.merchantId !== channel.merchantId || own.provider !== channel.provider) return;
      try {
        await refunds.finish(report.tradeNo, report.outcome, report.reason ?? null, ref);
      } catch (error) {
        if (error instanceof AppError && (error.status === 409 || error.status === 404)) return;
        throw error;
      }
      return;
    }
    const isPayout = report.tradeNo.startsWith('P');
    const order = isPayout
      ? await payouts.findAny(report.tradeNo)
      : await collections.findAny(report.tradeNo);
    if (!order || order.merchantId !== channel.merchantId) return;
    const own = await repo.channel(db, order.channelId);
    if (!own || own.provider !== channel.provider) return;
    try {
      // Its answer was lost before it moved: it is on its way, then ended.
      if (isPayout && order.status === 'pending')
        await payouts.transition(report.tradeNo, 'processing', null, ref);
      if (isPayout)
        await payouts.transition(
          report.tradeNo,
          report.outcome === 'succeeded' ? 'success' : 'failed',
          report.reason ?? null,
          ref,
        );
      else await collections.finish(report.tradeNo, report.outcome === 'succeeded' ? 'paid' : 'failed', ref);
    } catch (error) {
      if (error instanceof AppError && (error.status === 409 || error.status === 404)) return;
      throw error;
    }
  }

  /** The merchant's channel of this code that takes collections (the reconciliation's subject). */
  async function collectionChannel(merchantId: number, code: string): Promise<ChannelRow> {
    const channel = (await repo.channelsByCode(db, code)).find(
      (c) => c.merchantId === merchantId && c.kind === 'collection',
    );
    if (!channel) throw notFound(`The merchant has no collection channel ${code}.`);
    return channel;
  }

  type ImportInput = {
    merchantId: number;
    channel: string;
    date: string;
    format: StatementFormat;
    fileName: string;
    content: Buffer;
  };

  /**
   * statement:import: every credit line of the file applied once, in one transaction (all or nothing); a
   * file with any bad line is refused with its line and reason. The same file again applies nothing new.
   */
  async function importStatement(input: ImportInput, context: ActionContext) {
    const channel = await collectionChannel(input.merchantId, input.channel);
    const currency = channel.currency as Currency;
    const columns = {
      ...DEFAULT_CSV_COLUMNS,
      ...((channel.settings as { statement_columns?: Partial<CsvColumns> }).statement_columns ?? {}),
    };
    let parsed: ReturnType<typeof parseStatement>;
    try {
      parsed = parseStatement(input.format, input.content, currency, columns);
    } catch (error) {
      if (error instanceof StatementError)
        throw new ValidationError({ file: [error.message] }, ERROR_CODES.statementInvalid);
      throw error;
    }
    const zone = await zoneOf(channel.merchantId);
    const sha256 = sha256Hex(input.content);
    const request = {
      merchant_id: input.merchantId,
      channel: channel.code,
      date: input.date,
      format: input.format,
      file_name: input.fileName,
      sha256,
    };
    return runOperatorAction(db, 'statement.import', context, request, channel.merchantId, async (tx) => {
      const row = await repo.insertImport(tx, {
        merchantId: channel.merchantId,
        channelId: channel.id,
        businessDate: input.date,
        format: input.format,
        fileName: input.fileName,
        sha256,
        lineCount: parsed.credits.length,
        newLines: 0,
        importedBy: context.operator.name,
      });
      // A line with a day but no time was paid some time that day (the merchant's): its start.
      const dayStart = dayRange(input.date, zone).start;
      const counts = await receiveStatementLines(
        tx,
        collections,
        channel,
        parsed.credits.map(({ dateOnly, line: _line, ...line }) => ({
          ...line,
          currency,
          paidAt: dateOnly ? dayStart : line.paidAt,
        })),
        { importId: row.id, businessDate: input.date },
      );
      await repo.setNewLines(tx, row.id, parsed.credits.length - counts.seen);
      return {
        data: {
          import_id: row.id,
          channel: channel.code,
          date: input.date,
          lines: parsed.credits.length,
          debits_skipped: parsed.debits,
          ...counts,
        },
      };
    });
  }

  /** The reconciliation of a channel's day: matched, unknown, missing, differences, resolutions. */
  async function show(merchantId: number, code: string, date: string) {
    const channel = await collectionChannel(merchantId, code);
    const currency = channel.currency as Currency;
    const zone = await zoneOf(channel.merchantId);
    const { start, end } = dayRange(date, zone);
    const [imports, payments, resolutions, closed] = await Promise.all([
      repo.importsOf(db, channel.id, date),
      repo.paymentsOf(db, channel.id, date),
      repo.resolutionsOf(db, channel.id, date),
      repo.closedDay(db, channel.id, date),
    ]);
    const money = (minor: bigint) => fromMinor(minor, currency);
    const resolvedMissing = new Set(
      resolutions.filter((r) => r.paymentId === null).map((r) => r.collectionId),
    );
    // Missing is known only once the bank's statement of the day is in.
    const missing =
      imports.length === 0
        ? []
        : (await repo.missingOf(db, channel.id, start, end)).filter((c) => !resolvedMissing.has(c.id));
    const view = (p: (typeof payments)[number]) => ({
      id: p.payment.id,
      txn_id: p.payment.txnId,
      reference: p.payment.reference,
      amount: money(p.payment.amountMinor),
      trade_no: p.tradeNo,
      order_amount: p.orderAmountMinor === null ? null : money(p.orderAmountMinor),
      problem: p.payment.problem,
      paid_at: p.payment.paidAt.toISOString(),
      on_statement: p.payment.statementImportId !== null,
      notified: p.payment.notifiedAt !== null,
    });
    const of = (status: string) => payments.filter((p) => p.payment.status === status).map(view);
    // Matched: ours and on the bank's statement; one only notified is "missing" until a statement lists it.
    const matched = payments
      .filter((p) => p.payment.status === 'matched' && p.payment.statementImportId !== null)
      .map(view);
    const unknown = of('unknown');
    const differences = of('review');
    return {
      channel: channel.code,
      currency,
      date,
      status: closed ? 'closed' : 'open',
      closed_by: closed?.closedBy ?? null,
      statements: imports.map((i) => ({
        id: i.id,
        format: i.format,
        file_name: i.fileName,
        lines: i.lineCount,
        new_lines: i.newLines,
      })),
      matched,
      unknown,
      missing: missing.map((c) => ({
        trade_no: c.tradeNo,
        amount: money(c.amountMinor),
        paid_at: c.paidAt?.toISOString() ?? null,
      })),
      differences,
      resolved: resolutions.map((r) => ({
        id: r.id,
        payment_id: r.paymentId,
        action: r.action,
        reason: r.reason,
        amount: r.amountMinor === null ? null : money(r.amountMinor),
        resolved_by: r.resolvedBy,
      })),
      left: unknown.length + differences.length + missing.length,
    };
  }

  type ResolveInput = {
    merchantId: number;
    channel: string;
    date: string;
    /** A received payment (unknown or in review), or a missing order's trade_no. */
    paymentId?: number;
    tradeNo?: string;
    action: ResolutionAction;
    /** ledger_adjustment: the signed amount moved into (positive) or out of the merchant's balance. */
    amount?: string;
  };

  /** One difference resolved with a reason (reconcile:resolve); a difference resolves once. */
  async function resolve(input: ResolveInput, context: ActionContext) {
    const channel = await collectionChannel(input.merchantId, input.channel);
    const currency = channel.currency as Currency;
    if ((await repo.closedDay(db, channel.id, input.date)) !== undefined)
      throw conflict(`The reconciliation of ${input.date} is closed.`, ERROR_CODES.invalidTransition);
    let adjustment: bigint | null = null;
    if (input.action === 'ledger_adjustment') {
      const amount = input.amount?.trim() ?? '';
      const negative = amount.startsWith('-');
      try {
        adjustment = toMinor(negative ? amount.slice(1) : amount, currency) * (negative ? -1n : 1n);
      } catch {
        throw ValidationError.field('amount', 'A ledger adjustment needs an amount such as 10.00 or -10.00.');
      }
      if (adjustment === 0n) throw ValidationError.field('amount', 'The amount must not be zero.');
    }
    const request = { ...input, amount: input.amount ?? null };
    return runOperatorAction(
      db,
      'reconcile.resolve',
      context,
      request,
      channel.merchantId,
      async (tx, actionId) => {
        const subject = await subjectOf(tx, channel, input);
        if (input.action === 'mark_paid') {
          if (!subject.tradeNo || subject.orderStatus !== 'to_be_paid')
            throw conflict(
              'Only a payment of an unpaid order of ours can mark it paid.',
              ERROR_CODES.invalidTransition,
            );
          await collections.finishIn(
            tx,
            subject.tradeNo,
            'paid',
            subject.txnId ?? undefined,
            subject.paidAt ?? undefined,
          );
        }
        const saved = await repo.insertResolution(tx, {
          merchantId: channel.merchantId,
          channelId: channel.id,
          businessDate: input.date,
          paymentId: subject.paymentId,
          collectionId: subject.collectionId,
          action: input.action,
          reason: context.reason,
          amountMinor: adjustment,
          resolvedBy: context.operator.name,
        });
        if (!saved) throw conflict('This difference is resolved already.', ERROR_CODES.invalidTransition);
        if (subject.paymentId !== null) await repo.resolvePayment(tx, subject.paymentId);
        if (adjustment !== null) {
          const { entry } = await ledger.post(tx, {
            merchantId: channel.merchantId,
            type: adjustment > 0n ? 'transfer_in' : 'transfer_out',
            amountMinor: adjustment,
            refType: 'reconciliation',
            refId: String(saved.id),
            refNo: subject.tradeNo ?? subject.txnId ?? null,
            note: context.reason,
            idempotencyKey: `reconciliation:${saved.id}:adjust`,
          });
          await repo.setResolutionEntry(tx, saved.id, entry.entryId);
        }
        return {
          data: {
            resolution_id: saved.id,
            action: input.action,
            trade_no: subject.tradeNo,
            action_id: actionId,
          },
        };
      },
    );
  }

  /** What a resolution is about: a received payment of the channel's day, or a missing order of ours. */
  async function subjectOf(tx: Tx, channel: ChannelRow, input: ResolveInput) {
    if (input.paymentId !== undefined) {
      const payment = await repo.paymentById(tx, input.paymentId);
      if (!payment || payment.channelId !== channel.id || payment.businessDate !== input.date)
        throw notFound(`No payment ${input.paymentId} on ${channel.code} on ${input.date}.`);
      if (payment.status !== 'unknown' && payment.status !== 'review')
        throw conflict(
          `The payment is ${payment.status}: nothing to resolve.`,
          ERROR_CODES.invalidTransition,
        );
      // An unknown payment's mark_paid names the order it pays (--trade-no); one in review has its order.
      const order = payment.collectionId
        ? await repo.collectionById(tx, payment.collectionId)
        : input.tradeNo
          ? await repo.collectionOfChannel(tx, channel.id, input.tradeNo)
          : undefined;
      if (input.tradeNo && !order) throw notFound(`No order ${input.tradeNo} on ${channel.code}.`);
      return {
        paymentId: payment.id,
        collectionId: order?.id ?? null,
        tradeNo: order?.tradeNo ?? null,
        orderStatus: order?.status ?? null,
        txnId: payment.txnId,
        paidAt: payment.paidAt,
      };
    }
    if (!input.tradeNo)
      throw ValidationError.field('payment', 'Name the payment (--payment) or the order (--trade-no).');
    const order = await repo.collectionOfChannel(tx, channel.id, input.tradeNo);
    if (!order) throw notFound(`No order ${input.tradeNo} on ${channel.code}.`);
    return {
      paymentId: null,
      collectionId: order.id,
      tradeNo: order.tradeNo,
      orderStatus: order.status,
      txnId: null,
      paidAt: null,
    };
  }

  /** reconcile:close: the day closes when no difference is left. */
  async function close(
    merchantId: number,
    code: string,
    date: string,
    context: ActionContext,
  ): Promise<ActionResult<Record<string, unknown>>> {
    const report = await show(merchantId, code, date);
    if (report.statements.length === 0)
      throw conflict(
        `No statement of ${date} is imported: import it before closing the day.`,
        ERROR_CODES.reconciliationOpen,
      );
    if (report.left > 0)
      throw conflict(
        `${report.left} difference(s) of ${date} are left: resolve them before closing the day.`,
        ERROR_CODES.reconciliationOpen,
      );
    const channel = await collectionChannel(merchantId, code);
    return runOperatorAction(
      db,
      'reconcile.close',
      context,
      { merchant_id: merchantId, channel: code, date },
      merchantId,
      async (tx) => {
        const saved = await repo.closeDay(tx, {
          merchantId,
          channelId: channel.id,
          businessDate: date,
          closedBy: context.operator.name,
          closedAt: now(),
        });
        if (!saved)
          throw conflict(`The reconciliation of ${date} is closed already.`, ERROR_CODES.invalidTransition);
        return { data: { channel: code, date, status: 'closed' } };
      },
    );
  }

  /** A payment a provider's job found (a status query): applied once, as a notification would. */
  async function receive(channel: ChannelRow, payment: ReceivedPayment) {
    const zone = await zoneOf(channel.merchantId);
    const at = now();
    return transactionWithRetry(db, (tx) =>
      receivePayment(tx, collections, channel, zone, payment, { kind: 'notification', at }),
    );
  }

  return { notify, importStatement, show, resolve, close, receive };
}

/** The demo seed's live history: payments the bank notified, written as they were applied. */
export const seedReceivedPayment = repo.insertPayment;
