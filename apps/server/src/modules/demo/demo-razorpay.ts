import { randomBytes } from 'node:crypto';
import { fromMinor, toMinor } from '@paydesk/shared';
import { feeOf } from '@paydesk/shared/collections/collections.schemas.ts';
import type { Tx } from '../../db/client.ts';
import { encrypt } from '../../lib/crypto.ts';
import { openChannel } from '../channels/index.ts';
import { newTradeNo, seedCollectionRow } from '../collections/index.ts';
import { insertStandInLink, razorpayStandInUrl } from '../sandbox/index.ts';
import type { DemoMerchant } from './demo-collections.ts';

// The INR merchant's live Razorpay channel (`payment-links`, DESIGN 13), pointed at the demo's own stand-in of Razorpay's
// API (modules/sandbox/razorpay-stand-in.ts) at this server's address: collections by Payment Links, the
// payer's page, and the signed payment_link.paid webhook, with no Razorpay account. One paid order and one
// waiting for its payer, whose link the guide gives. A refund of the paid order (the console's Refund
// action) goes through the stand-in's Refunds API and is processed at once.

export type DemoRazorpay = {
  merchantNo: string;
  /** The order waiting for its payer, and its Razorpay page. */
  waiting: { tradeNo: string; amount: string; payUrl: string };
};

/** Opens `payment-links` (Razorpay, live, collections) on the stand-in at `origin`, with a little history. */
export async function seedDemoRazorpay(
  tx: Tx,
  appKey: Buffer,
  merchant: DemoMerchant,
  now: Date,
  origin: string,
): Promise<DemoRazorpay> {
  const channel = await openChannel(tx, {
    merchantId: merchant.id,
    code: 'payment-links',
    kind: 'collection',
    // eslint-disable-next-line paydesk/no-provider-name -- the seed opens it as an operator names it
    provider: 'razorpay',
    country: 'IN',
    currency: 'INR',
    feeRatePpm: 20_000,
    minAmountMinor: toMinor('1.00', 'INR'),
    maxAmountMinor: toMinor('500000.00', 'INR'),
    settlementCycle: 'T1',
    expiryMinutes: 1440,
    settings: {
      base_url: razorpayStandInUrl(origin),
      key_id: `rzp_live_${randomBytes(7).toString('hex')}`,
    },
    secrets: encrypt(
      appKey,
      JSON.stringify({
        key_secret: randomBytes(18).toString('base64url'),
        webhook_secret: randomBytes(24).toString('base64url'),
      }),
    ),
    openedBy: 'Paydesk demo',
  });
  const orders = [];
  for (const [index, amount] of ['2499.00', '799.00'].entries()) {
    const createdAt = new Date(now.getTime() - (40 - index * 15) * 60_000);
    const amountMinor = toMinor(amount, 'INR');
    const paid = index === 0;
    const tradeNo = newTradeNo('C', createdAt);
    const outTradeNo = `RZP-${merchant.no}-${String(index + 1).padStart(3, '0')}`;
    // The paid order's link is history (its payment's id is the reference); the waiting one's is live.
    const link = paid
      ? { id: `pay_${randomBytes(7).toString('hex')}`, short_url: null }
      : (await insertStandInLink(tx, {
          channelId: channel.id,
          origin,
          referenceId: tradeNo,
          amount: Number(amountMinor),
          currency: 'INR',
          description: `Order ${outTradeNo}`,
          expireBy: Math.floor(createdAt.getTime() / 1000) + channel.expiryMinutes * 60,
          at: createdAt,
        }))!;
    await seedCollectionRow(tx, {
      merchantId: merchant.id,
      channelId: channel.id,
      channelCode: channel.code,
      tradeNo,
      outTradeNo,
      amountMinor,
      feeMinor: feeOf(amountMinor, channel.feeRatePpm, channel.fixedFeeMinor),
      currency: 'INR',
      payerName: ['Rahul Verma', 'Ananya Iyer'][index],
      status: paid ? 'paid' : 'to_be_paid',
      channelRef: link.id,
      payUrl: link.short_url,
      expiresAt: new Date(createdAt.getTime() + channel.expiryMinutes * 60_000),
      paidAt: paid ? new Date(createdAt.getTime() + 3 * 60_000) : null,
      createdAt,
    });
    orders.push({ tradeNo, amountMinor, payUrl: link.short_url });
  }
  const waiting = orders[1];
  return {
    merchantNo: merchant.no,
    waiting: {
      tradeNo: waiting.tradeNo,
      amount: fromMinor(waiting.amountMinor, 'INR'),
      payUrl: waiting.payUrl!,
    },
  };
}
