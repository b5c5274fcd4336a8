import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { convertDown, type Currency, ERROR_CODES, fromMinor, toMinor } from '@paydesk/shared';
import type {
  ApproveTopUpBody,
  CreateTopUpFields,
  OpsTopUp,
  OpsTopUpListQuery,
  TopUp,
  TopUpNetwork,
  TopUpOptions,
  TopUpStatus,
  RejectTopUpBody,
  ScreenshotType,
} from '@paydesk/shared/top-ups/top-ups.schemas.ts';
import type { Config } from '../../config.ts';
import type { Db, Tx } from '../../db/client.ts';
import { conflict, notFound, ValidationError } from '../../lib/errors.ts';
import { FileNotFoundError, type FileStorage } from '../../lib/storage/index.ts';
import { newTradeNo } from '../collections/index.ts';
import { type Ledger, transactionWithRetry } from '../ledger/index.ts';
import { type ActionContext, findMerchantByNo, runOperatorAction } from '../ops/index.ts';
import { recordSecurityEvent } from '../security-log/index.ts';
import { cleanScreenshot } from './clean-screenshot.ts';
import { type TopUpRow, topUpsRepository as repo } from './top-ups.repository.ts';
import type { Viewer } from '../../plugins/auth-context.ts';
import { isoOrNull } from '../../lib/timezone.ts';

// Top-ups (DESIGN sections 3, 4 and 9): pending_review -> approved | rejected, decided by an operator.
// Approval credits received x rate (rounded down) to the merchant's available balance against the
// platform's usdt_deposits account, in the same transaction as the decision, its operator record and the
// merchant's security event; any other transition answers 409 and changes nothing.

export type MerchantRef = { id: number; currency: Currency };
export type { Viewer };

type Deps = {
  db: Db;
  storage: FileStorage;
  ledger: Pick<Ledger, 'post'>;
  now: () => Date;
  topUp: Config['topUp'];
};

const creditKey = (id: number) => `recharge:${id}:credit`;

/** A top-up as the console shows it. */
export function presentTopUp(row: TopUpRow): TopUp {
  const currency = row.currency as Currency;
  return {
    recharge_no: row.topUpNo,
    status: row.status as TopUpStatus,
    currency: 'USDT',
    network: row.network as TopUpNetwork,
    address: row.depositAddress,
    amount: fromMinor(row.amountMinor, 'USDT'),
    received_amount: row.receivedMinor === null ? null : fromMinor(row.receivedMinor, 'USDT'),
    rate: row.rate,
    credited_amount: row.creditedMinor === null ? null : fromMinor(row.creditedMinor, currency),
    credited_currency: currency,
    credited_usd: row.creditedUsdMinor === null ? null : fromMinor(row.creditedUsdMinor, 'USD'),
    reason: row.reviewReason,
    screenshot_type: row.screenshotType as ScreenshotType,
    created_at: row.createdAt.toISOString(),
    reviewed_at: isoOrNull(row.reviewedAt),
  };
}

export type TopUpsService = ReturnType<typeof createTopUpsService>;

export function createTopUpsService({ db, storage, ledger, now, topUp }: Deps) {
  const present = presentTopUp;
  const presentForOps = (row: TopUpRow, merchantNo: string): OpsTopUp => ({
    ...present(row),
    merchant: merchantNo,
    usd_rate: row.usdRate,
    screenshot_bytes: row.screenshotBytes,
    reviewed_by: row.reviewedBy,
  });

  function options(merchant: MerchantRef): TopUpOptions {
    return {
      currency: 'USDT',
      networks: (['TRC20', 'ERC20'] as const).map((network) => ({
        network,
        address: topUp.addresses[network],
      })),
      rate: topUp.rates[merchant.currency] ?? '1',
      merchant_currency: merchant.currency,
    };
  }

  /**
   * A merchant's top-up request: the screenshot is checked and cleaned (clean-screenshot.ts), stored under a
   * generated name, then the row is written; a refusal at any step stores nothing.
   */
  async function create(
    merchant: MerchantRef,
    userId: number,
    fields: CreateTopUpFields,
    screenshot: unknown,
  ): Promise<TopUp> {
    let amountMinor: bigint;
    try {
      amountMinor = toMinor(fields.amount, 'USDT');
    } catch (error) {
      throw ValidationError.field('amount', (error as Error).message);
    }
    const image = await cleanScreenshot(screenshot);
    const at = now();
    const key = `recharges/${merchant.id}/${randomUUID()}.${image.extension}`;
    await storage.put(key, image.bytes, { contentType: image.type });
    try {
      const row = await transactionWithRetry(db, (tx) =>
        repo.insert(tx, {
          merchantId: merchant.id,
          topUpNo: newTradeNo('R', at),
          createdByUserId: userId,
          network: fields.network,
          depositAddress: topUp.addresses[fields.network],
          amountMinor,
          currency: merchant.currency,
          screenshotKey: key,
          screenshotType: image.type,
          screenshotBytes: image.bytes.length,
          createdAt: at,
        }),
      );
      return present(row);
    } catch (error) {
      // Nothing committed: the file goes too, so a refusal leaves nothing behind.
      await storage.delete(key).catch(() => undefined);
      throw error;
    }
  }

  async function openScreenshot(
    row: TopUpRow,
  ): Promise<{ stream: Readable; type: ScreenshotType; size: number }> {
    try {
      const stream = await storage.get(row.screenshotKey);
      return { stream, type: row.screenshotType as ScreenshotType, size: row.screenshotBytes };
    } catch (error) {
      if (error instanceof FileNotFoundError) throw notFound('The screenshot was not found.');
      throw error;
    }
  }

  /** The merchant's own top-up's screenshot; another merchant's answers 404 as if it did not exist. */
  async function screenshotOf(merchantId: number, topUpNo: string) {
    const row = await repo.findByNo(db, merchantId, topUpNo);
    if (!row) throw notFound('The top-up was not found.');
    return openScreenshot(row);
  }

  // ---- The operator's side (DESIGN 10: topup:list|show|approve|reject)

  async function findForOps(tx: Db | Tx, topUpNo: string) {
    const found = await repo.findAnyByNo(tx, topUpNo);
    if (!found) throw notFound(`No top-up has the number ${topUpNo}.`);
    return found;
  }

  async function listForOps(query: OpsTopUpListQuery): Promise<OpsTopUp[]> {
    let merchantId: number | undefined;
    if (query.merchant) {
      const merchant = await findMerchantByNo(db, query.merchant);
      if (!merchant) throw ValidationError.field('merchant', `No merchant has the number ${query.merchant}.`);
      merchantId = merchant.id;
    }
    const rows = await repo.listForOps(db, { merchantId, status: query.status, limit: query.limit });
    return rows.map((r) => presentForOps(r.topUp, r.merchantNo));
  }

  async function showForOps(topUpNo: string): Promise<OpsTopUp> {
    const found = await findForOps(db, topUpNo);
    return presentForOps(found.topUp, found.merchantNo);
  }

  async function screenshotForOps(topUpNo: string) {
    return openScreenshot((await findForOps(db, topUpNo)).topUp);
  }

  const notPending = (row: TopUpRow) =>
    conflict(
      `Top-up ${row.topUpNo} is ${row.status.replace('_', ' ')}; only a top-up pending review can be decided.`,
      ERROR_CODES.invalidTransition,
    );

  /** Credits received x rate (rounded down) once; a second decision of any kind answers 409. */
  async function approve(body: ApproveTopUpBody, context: ActionContext) {
    const receivedMinor = toMinor(body.received, 'USDT');
    const usdRate = body.usd_rate ?? topUp.rates.USD ?? '1';
    return runOperatorAction(db, 'topup.approve', context, body, null, async (tx, actionId) => {
      const { topUp: row, merchantNo } = await findForOps(tx, body.no);
      if (row.status !== 'pending_review') throw notPending(row);
      const currency = row.currency as Currency;
      const creditedMinor = convertDown(receivedMinor, 'USDT', body.rate, currency);
      if (creditedMinor <= 0n) {
        throw ValidationError.field(
          'rate',
          `${body.received} USDT at ${body.rate} is less than the smallest unit of ${currency}.`,
        );
      }
      const at = now();
      const updated = await repo.decide(tx, row.id, {
        status: 'approved',
        receivedMinor,
        rate: body.rate,
        usdRate,
        creditedMinor,
        creditedUsdMinor: convertDown(receivedMinor, 'USDT', usdRate, 'USD'),
        reviewedBy: context.operator.name,
        reviewedAt: at,
        reviewReason: body.reason,
      });
      if (!updated) throw notPending(row);
      await ledger.post(tx, {
        merchantId: row.merchantId,
        type: 'recharge',
        amountMinor: creditedMinor,
        refType: 'recharge',
        refId: String(row.id),
        refNo: row.topUpNo,
        note: `${body.received} USDT x ${body.rate}`,
        idempotencyKey: creditKey(row.id),
      });
      await recordDecision(tx, updated, context, actionId);
      return { data: presentForOps(updated, merchantNo), merchantId: row.merchantId };
    });
  }

  async function reject(body: RejectTopUpBody, context: ActionContext) {
    return runOperatorAction(db, 'topup.reject', context, body, null, async (tx, actionId) => {
      const { topUp: row, merchantNo } = await findForOps(tx, body.no);
      if (row.status !== 'pending_review') throw notPending(row);
      const updated = await repo.decide(tx, row.id, {
        status: 'rejected',
        reviewedBy: context.operator.name,
        reviewedAt: now(),
        reviewReason: body.reason,
      });
      if (!updated) throw notPending(row);
      await recordDecision(tx, updated, context, actionId);
      return { data: presentForOps(updated, merchantNo), merchantId: row.merchantId };
    });
  }

  /** The merchant's security log shows every decision on its money: who, when, why. */
  async function recordDecision(tx: Tx, row: TopUpRow, context: ActionContext, actionId: number) {
    const currency = row.currency as Currency;
    await recordSecurityEvent(tx, null, {
      type: row.status === 'approved' ? 'topup_approved' : 'topup_rejected',
      merchantId: row.merchantId,
      userId: null,
      detail: {
        recharge_no: row.topUpNo,
        operator: context.operator.name,
        reason: context.reason,
        operator_action: actionId,
        ...(row.creditedMinor !== null
          ? { credited: fromMinor(row.creditedMinor, currency), currency, rate: row.rate }
          : {}),
      },
    });
  }

  return {
    options,
    create,
    screenshotOf,
    listForOps,
    showForOps,
    screenshotForOps,
    approve,
    reject,
    present,
  };
}
