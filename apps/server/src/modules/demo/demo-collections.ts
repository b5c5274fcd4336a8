import { randomBytes } from 'node:crypto';
import { type Currency, toMinor } from '@paydesk/shared';
import { feeOf } from '@paydesk/shared/collections/collections.schemas.ts';
import type { Tx } from '../../db/client.ts';
import { encrypt } from '../../lib/crypto.ts';
import { newWebhookSecret } from '../../lib/webhooks.ts';
import { seedAccessKey, seedIpWhitelist } from '../access-key/index.ts';
import { type ChannelRow, openChannel } from '../channels/index.ts';
import {
  attachToSettlement,
  claimCollectionRefund,
  giveBackCollectionRefund,
  markCollectionsSettled,
  markSettlementSettled,
  newTradeNo,
  seedCollectionRow,
  seedSettlementRow,
} from '../collections/index.ts';
import { createLedger } from '../ledger/index.ts';
import { DEMO_PAYEES, seedPayoutRow } from '../payouts/index.ts';
import { seedRefundRow } from '../refunds/index.ts';

// The demo's receive-money data (DESIGN section 4): open sandbox channels, an access key whitelisted for
// this machine, and collection orders in every state (to be paid, paid, settled, closed, failed) over the
// last days, with one settled batch posted through the ledger like a real settlement run.

export type DemoMerchant = { id: number; no: string; currency: Currency; timeZone: string };

const DAY = 86_400_000;

/** Amounts in the merchant's currency, scaled for VND (no decimals, larger numbers). */
const amountsOf = (currency: Currency) =>
  currency === 'VND'
    ? ['250000', '1200000', '85000', '3400000', '560000', '99000', '2150000', '740000']
    : ['128.00', '1299.50', '45.90', '3200.00', '568.25', '88.80', '2150.00', '760.40'];

export async function seedDemoChannels(tx: Tx, merchant: DemoMerchant) {
  const country = ({ CNY: 'CN', INR: 'IN', BRL: 'BR', VND: 'VN' } as const)[merchant.currency as 'CNY'];
  const min = merchant.currency === 'VND' ? '10000' : '1.00';
  const max = merchant.currency === 'VND' ? '500000000' : '50000.00';
  const base = {
    merchantId: merchant.id,
    kind: 'collection',
    country,
    currency: merchant.currency,
    minAmountMinor: toMinor(min, merchant.currency),
    maxAmountMinor: toMinor(max, merchant.currency),
    openedBy: 'Paydesk demo',
  } as const;
  // The default (first opened): paid on the hosted page; settles T+1.
  const manual = await openChannel(tx, {
    ...base,
    // eslint-disable-next-line paydesk/no-provider-name -- a channel code merchants send, not a provider
    code: 'sandbox',
    feeRatePpm: 15_000,
    settlementCycle: 'T1',
  });
  // For demo traffic: pays 90% of orders by itself after 3 s; settles T+0. Routed below the first, so an
  // order that names no channel goes to it only while `sandbox` is down (DESIGN 14).
  await openChannel(tx, {
    ...base,
    code: 'sandbox-auto',
    priority: -1,
    feeRatePpm: 12_000,
    fixedFeeMinor: merchant.currency === 'VND' ? 1000n : 50n,
    settlementCycle: 'T0',
    sandboxMode: 'auto',
    sandboxSuccessPpm: 900_000,
    sandboxDelaySeconds: 3,
  });
  return manual;
}

/** A key whose secret the ops command line can use for demo traffic; the merchant reveals it with step-up. */
/** The test key of the merchant's test twin (`merchant`), and the company's whitelist on its live row. */
export async function seedDemoAccessKey(
  tx: Tx,
  appKey: Buffer,
  merchant: DemoMerchant,
  liveMerchantId: number,
) {
  await seedAccessKey(tx, merchant.id, {
    accessKey: `test_demo${merchant.no.toLowerCase()}${randomBytes(6).toString('hex')}`,
    secretEncrypted: encrypt(appKey, randomBytes(24).toString('base64url')),
    webhookSecretEncrypted: encrypt(appKey, newWebhookSecret()),
  });
  await seedIpWhitelist(tx, liveMerchantId, ['127.0.0.1', '::1']);
}

/** Orders over the last four days in every state; the ones paid before today settled in one batch now. */
export async function seedDemoCollections(tx: Tx, merchant: DemoMerchant, channel: ChannelRow, now: Date) {
  const amounts = amountsOf(merchant.currency);
  const plan: { daysAgo: number; status: 'paid' | 'failed' | 'closed' | 'to_be_paid' }[] = [
    { daysAgo: 4, status: 'paid' },
    { daysAgo: 4, status: 'failed' },
    { daysAgo: 3, status: 'paid' },
    { daysAgo: 3, status: 'closed' },
    { daysAgo: 2, status: 'paid' },
    { daysAgo: 1, status: 'paid' },
    { daysAgo: 0, status: 'paid' },
    { daysAgo: 0, status: 'to_be_paid' },
  ];
  const settle: { id: number; amountMinor: bigint; feeMinor: bigint }[] = [];
  const startOfToday = new Date(Math.floor(now.getTime() / DAY) * DAY);
  for (const [index, step] of plan.entries()) {
    const createdAt =
      step.daysAgo === 0
        ? new Date(now.getTime() - (plan.length - index) * 60_000)
        : new Date(startOfToday.getTime() - step.daysAgo * DAY + (3 + index) * 3_600_000);
    const amountMinor = toMinor(amounts[index % amounts.length], merchant.currency);
    const feeMinor = feeOf(amountMinor, channel.feeRatePpm, channel.fixedFeeMinor);
    const expiresAt = new Date(createdAt.getTime() + channel.expiryMinutes * 60_000);
    const row = await seedCollectionRow(tx, {
      merchantId: merchant.id,
      channelId: channel.id,
      channelCode: channel.code,
      tradeNo: newTradeNo('C', createdAt),
      outTradeNo: `DEMO-${merchant.no}-${String(index + 1).padStart(4, '0')}`,
      amountMinor,
      feeMinor,
      currency: merchant.currency,
      payerName: ['Li Wei', 'Priya Sharma', 'Ana Souza', 'Nguyễn Văn An'][index % 4],
      note: index % 3 === 0 ? 'Order from the demo shop' : null,
      status: step.status,
      expiresAt,
      paidAt: step.status === 'paid' ? new Date(createdAt.getTime() + 90_000) : null,
      finishedAt:
        step.status === 'failed'
          ? new Date(createdAt.getTime() + 120_000)
          : step.status === 'closed'
            ? expiresAt
            : null,
      createdAt,
    });
    if (row && step.status === 'paid' && step.daysAgo > 0) settle.push(row);
  }
  if (settle.length === 0) return settle;
  const gross = settle.reduce((s, o) => s + o.amountMinor, 0n);
  const fee = settle.reduce((s, o) => s + o.feeMinor, 0n);
  const batch = await seedSettlementRow(tx, {
    settlementNo: `S${now
      .toISOString()
      .replace(/[-:TZ.]/g, '')
      .slice(0, 14)}${String(channel.id).padStart(4, '0')}0000`,
    merchantId: merchant.id,
    channelId: channel.id,
    channelCode: channel.code,
    cycle: 'T1',
    businessDate: new Date(startOfToday.getTime() - DAY).toISOString().slice(0, 10),
    orderCount: settle.length,
    grossMinor: gross,
    feeMinor: fee,
    netMinor: gross - fee,
    currency: merchant.currency,
    createdAt: now,
  });
  await attachToSettlement(
    tx,
    batch.id,
    settle.map((o) => o.id),
  );
  const { entry } = await createLedger().post(tx, {
    merchantId: merchant.id,
    type: 'collection_settlement',
    amountMinor: batch.netMinor,
    feeMinor: batch.feeMinor,
    channel: channel.code,
    refType: 'settlement',
    refId: String(batch.id),
    refNo: batch.settlementNo,
    note: `${batch.orderCount} orders, ${batch.businessDate}`,
    idempotencyKey: `settlement:${batch.id}`,
    at: now,
  });
  await markCollectionsSettled(tx, batch.id, now);
  await markSettlementSettled(tx, batch.id, entry.entryId, now);
  return settle;
}

/**
 * Refunds of the demo's settled orders (DESIGN 14), posted through the ledger as their life cycle posts
 * them: a partial one that succeeded (held, then out through the channel) and one that failed (held, then
 * back); so Receive money > Refunds and the fund flows show both on first start.
 */
export async function seedDemoRefunds(
  tx: Tx,
  merchant: DemoMerchant,
  channel: ChannelRow,
  orders: { id: number; amountMinor: bigint }[],
  now: Date,
) {
  const ledger = createLedger();
  const plan = [
    { order: orders[0], part: 3n, status: 'succeeded', reason: 'One item returned' },
    { order: orders[1] ?? orders[0], part: 10n, status: 'failed', reason: 'Customer asked for a refund' },
  ] as const;
  for (const [index, step] of plan.entries()) {
    if (!step.order) continue;
    const at = new Date(now.getTime() + (index + 1) * 1000);
    const amountMinor = step.order.amountMinor / step.part;
    const order = await claimCollectionRefund(tx, merchant.id, step.order.id, amountMinor);
    if (!order) continue;
    const refundNo = newTradeNo('R', at);
    const row = await seedRefundRow(tx, {
      merchantId: merchant.id,
      collectionId: step.order.id,
      tradeNo: order.tradeNo,
      outTradeNo: order.outTradeNo,
      channelId: channel.id,
      channelCode: channel.code,
      refundNo,
      outRefundNo: `DEMO-REFUND-${index + 1}`,
      source: 'console',
      amountMinor,
      currency: merchant.currency,
      status: step.status,
      reason: step.reason,
      failureReason: step.status === 'failed' ? 'Sandbox: the payer account refused the refund.' : null,
      finishedAt: new Date(at.getTime() + 60_000),
      createdAt: at,
    });
    if (!row) continue;
    const { hold } = await ledger.hold(tx, {
      merchantId: merchant.id,
      type: 'refund',
      amountMinor,
      refType: 'refund',
      refId: String(row.id),
      refNo: refundNo,
      note: order.tradeNo,
      // At the time of writing, as the payouts' captures before it (a back-dated entry may not precede them).
      idempotencyKey: `refund:${row.id}:hold`,
    });
    if (step.status === 'succeeded') {
      await ledger.capture(tx, {
        merchantId: merchant.id,
        holdId: hold.id,
        channel: channel.code,
        idempotencyKey: `refund:${row.id}:succeeded`,
      });
    } else {
      await ledger.release(tx, {
        merchantId: merchant.id,
        holdId: hold.id,
        idempotencyKey: `refund:${row.id}:failed`,
        note: row.failureReason,
      });
      await giveBackCollectionRefund(tx, step.order.id, amountMinor);
    }
  }
}

/**
 * A sandbox payout channel, and payouts in every state posted through the ledger as the real life cycle
 * posts them: held at creation, captured on success, released on failure, the amount back on a refund.
 */
export async function seedDemoPayouts(tx: Tx, merchant: DemoMerchant, now: Date) {
  const country = ({ CNY: 'CN', INR: 'IN', BRL: 'BR', VND: 'VN' } as const)[merchant.currency as 'CNY'];
  const vnd = merchant.currency === 'VND';
  const channel = await openChannel(tx, {
    merchantId: merchant.id,
    kind: 'payout',
    code: 'sandbox-pay',
    country,
    currency: merchant.currency,
    feeRatePpm: 8_000,
    fixedFeeMinor: vnd ? 2000n : 100n,
    minAmountMinor: toMinor(vnd ? '10000' : '1.00', merchant.currency),
    maxAmountMinor: toMinor(vnd ? '500000000' : '50000.00', merchant.currency),
    openedBy: 'Paydesk demo',
  });
  const payee: Record<string, string> = DEMO_PAYEES[merchant.currency as 'CNY'];
  const ledger = createLedger();
  const plan: {
    status: 'success' | 'failed' | 'processing' | 'pending' | 'refund_received' | 'rejected';
    amount: string;
  }[] = [
    { status: 'success', amount: vnd ? '120000' : '120.00' },
    { status: 'success', amount: vnd ? '38000' : '38.86' },
    { status: 'failed', amount: vnd ? '50000' : '50.00' },
    { status: 'refund_received', amount: vnd ? '10000' : '9.99' },
    { status: 'rejected', amount: vnd ? '15000' : '15.00' },
    { status: 'processing', amount: vnd ? '76000' : '76.00' },
    { status: 'pending', amount: vnd ? '45000' : '4.55' },
  ];
  for (const [index, step] of plan.entries()) {
    const amountMinor = toMinor(step.amount, merchant.currency);
    const feeMinor = feeOf(amountMinor, channel.feeRatePpm, channel.fixedFeeMinor);
    // Each merchant's payouts a few milliseconds apart from the others' (merchant.id): a trade number is
    // its millisecond and 6 random digits, and two demo payouts sharing a millisecond could clash (seen
    // once in CI: payouts_trade_no_unique, which the seed's transaction cannot retry).
    const createdAt = new Date(now.getTime() - (plan.length - index) * 60_000 - merchant.id);
    const tradeNo = newTradeNo('P', createdAt);
    const failed = step.status === 'failed' || step.status === 'rejected';
    const finished = step.status === 'pending' || step.status === 'processing' ? null : now;
    const row = (await seedPayoutRow(tx, {
      merchantId: merchant.id,
      channelId: channel.id,
      channelCode: channel.code,
      tradeNo,
      outTradeNo: `DEMO-PAY-${merchant.no}-${String(index + 1).padStart(3, '0')}`,
      source: index % 2 === 0 ? 'console' : 'gateway',
      amountMinor,
      feeMinor,
      currency: merchant.currency,
      status: step.status,
      accountType: 'individual',
      bankCode: payee.bank_code ?? null,
      bankName: payee.bank_name ?? null,
      branchName: payee.branch_name ?? null,
      ifsc: payee.ifsc ?? null,
      cpfCnpj: payee.cpf_cnpj ?? null,
      payeeName: payee.payee_name,
      accountNo: failed ? payee.account_no.slice(0, -4) + '0000' : payee.account_no,
      failureReason: failed
        ? 'Sandbox: the receiving account does not exist (it ends in 0000).'
        : step.status === 'refund_received'
          ? 'Returned by the bank'
          : null,
      processingAt: step.status === 'pending' || step.status === 'rejected' ? null : now,
      finishedAt: finished,
      refundedAt: step.status === 'refund_received' ? now : null,
      createdAt,
    }))!;
    // Posted at the database's clock, after the settlement (captures and releases cannot be back-dated).
    const cause = { merchantId: merchant.id, refType: 'payout', refId: String(row.id), refNo: tradeNo };
    const { hold } = await ledger.hold(tx, {
      ...cause,
      type: 'payout_deduction',
      amountMinor: amountMinor + feeMinor,
      note: payee.payee_name,
      idempotencyKey: `payout:${row.id}:deduct`,
    });
    if (step.status === 'success' || step.status === 'refund_received') {
      await ledger.capture(tx, {
        merchantId: merchant.id,
        holdId: hold.id,
        channel: channel.code,
        feeMinor,
        idempotencyKey: `payout:${row.id}:success`,
      });
    }
    if (failed) {
      await ledger.release(tx, {
        merchantId: merchant.id,
        holdId: hold.id,
        idempotencyKey: `payout:${row.id}:${step.status}`,
        note: row.failureReason,
      });
    }
    if (step.status === 'refund_received') {
      await ledger.post(tx, {
        ...cause,
        type: 'payout_refund',
        amountMinor,
        channel: channel.code,
        note: row.failureReason,
        idempotencyKey: `payout:${row.id}:refund`,
      });
    }
  }
}
