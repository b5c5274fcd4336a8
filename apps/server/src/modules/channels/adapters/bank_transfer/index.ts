import { createHmac } from 'node:crypto';
import { createStaticPix, hasError } from 'pix-utils';
import { QRPay } from 'vietnam-qr-pay';
import { z } from 'zod';
import { AmountError, type Currency, fromMinor, toMinor } from '@paydesk/shared';
import { banksOf, isIfscFormat } from '@paydesk/shared/payouts/bank-rules.ts';
import { safeEqual } from '../../../../lib/crypto.ts';
import type { ChannelRow } from '../../channels.repository.ts';
import {
  type ChannelAdapter,
  isChannelFaultByDefault,
  type ParsedNotification,
  type PayInstructions,
  type ReceivedPayment,
} from '../adapter.ts';
import { ourCollectionReport } from '../outcomes.ts';

// The bank transfer provider (DESIGN 13): the payer pays the platform's receiving account from their own
// bank, writing the order's trade_no as the reference. Our pay page (modules/checkout) shows the account,
// the exact amount, the reference and a QR code in the country's standard: VietQR (NAPAS EMVCo) for VND,
// Pix BR Code for BRL, a UPI intent for INR; bank details for CNY. The bank confirms payments by a signed
// notification (POST /channels/{code}/notify, HMAC-SHA256 of the raw body in X-Channel-Signature with the
// channel's notify_secret) or by the statement an operator imports; either one applies a payment once.
// There is no API to ask: our order is what it knows. Live and test mode alike: nothing here pays by itself.

const text = (max: number) => z.string().trim().min(1).max(max);

const Common = z.object({
  bank: text(80),
  account_name: text(70),
  account_no: z
    .string()
    .trim()
    .regex(/^[0-9A-Za-z-]{4,34}$/, 'The account number is 4 to 34 letters, digits or dashes.'),
});

const VN_BINS = new Set(banksOf('VN').map((bank) => bank.code));

/** The receiving account a channel's payers see, per its currency (what the country's QR needs). */
const SETTINGS: Record<Currency, z.ZodType<Record<string, unknown>>> = {
  CNY: Common.extend({ branch: text(80) }).strict(),
  VND: Common.extend({
    bank_bin: z
      .string()
      .trim()
      .refine((bin) => VN_BINS.has(bin), 'The bank_bin must be a NAPAS member bank BIN (VietQR).'),
  }).strict(),
  BRL: Common.extend({
    // The BR Code's merchant name and city are at most 25 and 15 characters.
    account_name: text(25),
    pix_key: text(77),
    city: text(15),
  }).strict(),
  INR: Common.extend({
    ifsc: z
      .string()
      .trim()
      .toUpperCase()
      .refine(isIfscFormat, 'The ifsc must be 4 letters, 0, 6 letters or digits.'),
    upi_id: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9._-]{2,256}@[A-Za-z][A-Za-z0-9]{1,63}$/, 'The upi_id must look like name@bank.'),
  }).strict(),
  // The wallet currencies have no bank transfer channel.
  USD: z.never(),
  USDT: z.never(),
};

type Settings = {
  bank: string;
  account_name: string;
  account_no: string;
  branch?: string;
  bank_bin?: string;
  pix_key?: string;
  city?: string;
  ifsc?: string;
  upi_id?: string;
};

const settingsOf = (channel: ChannelRow) => channel.settings as Settings;

/** The QR payload a payer's banking app reads, in the country's standard (null: none for the currency). */
export function paymentQr(
  currency: Currency,
  settings: Settings,
  order: { tradeNo: string; amountMinor: bigint },
): PayInstructions['qr'] {
  const amount = fromMinor(order.amountMinor, currency);
  if (currency === 'VND' && settings.bank_bin) {
    const payload = QRPay.initVietQR({
      bankBin: settings.bank_bin,
      bankNumber: settings.account_no,
      amount,
      purpose: order.tradeNo,
    }).build();
    return { standard: 'vietqr', payload };
  }
  if (currency === 'BRL' && settings.pix_key && settings.city) {
    const pix = createStaticPix({
      merchantName: settings.account_name,
      merchantCity: settings.city,
      pixKey: settings.pix_key,
      txid: order.tradeNo,
      transactionAmount: Number(amount),
    });
    if (hasError(pix)) throw new Error(`The Pix BR Code could not be built: ${pix.message}`);
    return { standard: 'pix', payload: pix.toBRCode() };
  }
  if (currency === 'INR' && settings.upi_id) {
    // NPCI's UPI linking specification: pa (payee address), pn (name), am, cu, tr (reference), tn (note).
    const params = [
      ['pa', settings.upi_id],
      ['pn', settings.account_name],
      ['am', amount],
      ['cu', 'INR'],
      ['tr', order.tradeNo],
      ['tn', order.tradeNo],
    ].map(([key, value]) => `${key}=${encodeURIComponent(value)}`);
    return { standard: 'upi', payload: `upi://pay?${params.join('&')}` };
  }
  return undefined;
}

const NotificationSchema = z.object({
  transaction_id: z.string().trim().min(1).max(64),
  reference: z.string().max(256).default(''),
  amount: z.string().regex(/^\d+(\.\d+)?$/, 'The amount must be a decimal string.'),
  currency: z.string(),
  paid_at: z.iso.datetime({ offset: true }),
  payer_name: z.string().max(140).nullish(),
});
const NotificationBodySchema = z.union([
  NotificationSchema,
  z.object({ payments: z.array(NotificationSchema).min(1).max(500) }),
]);

/** The signature the bank sends: hex HMAC-SHA256 of the raw body, with or without "sha256=" in front. */
export const signNotification = (secret: string, rawBody: string): string =>
  createHmac('sha256', secret).update(rawBody).digest('hex');

function parse(
  channel: ChannelRow,
  rawBody: string,
  signature: string | undefined,
  secret: string,
): ParsedNotification {
  const given = (signature ?? '')
    .trim()
    .replace(/^sha256=/i, '')
    .toLowerCase();
  if (!given || !secret || !safeEqual(given, signNotification(secret, rawBody)))
    return { verified: false, reason: 'The X-Channel-Signature does not match the body.' };
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    return { verified: false, reason: 'The body is not JSON.' };
  }
  const parsed = NotificationBodySchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { verified: false, reason: `${issue.path.join('.') || 'body'}: ${issue.message}` };
  }
  const items = 'payments' in parsed.data ? parsed.data.payments : [parsed.data];
  const currency = channel.currency as Currency;
  const payments: ReceivedPayment[] = [];
  for (const item of items) {
    if (item.currency.toUpperCase() !== currency)
      return { verified: false, reason: `The currency must be the channel's, ${currency}.` };
    let amountMinor: bigint;
    try {
      amountMinor = toMinor(item.amount, currency);
    } catch (error) {
      if (error instanceof AmountError) return { verified: false, reason: `amount: ${error.message}` };
      throw error;
    }
    if (amountMinor <= 0n) return { verified: false, reason: 'amount: it must be above zero.' };
    payments.push({
      txnId: item.transaction_id,
      reference: item.reference,
      amountMinor,
      currency,
      paidAt: new Date(item.paid_at),
      payer: item.payer_name ?? null,
    });
  }
  return { verified: true, reports: [], payments };
}

export const bankTransferAdapter: ChannelAdapter = {
  provider: 'bank_transfer',
  capabilities: {
    kinds: ['collection', 'refund'],
    modes: ['live', 'test'],
    countries: ['CN', 'IN', 'BR', 'VN'],
    currencies: ['CNY', 'INR', 'BRL', 'VND'],
  },
  settingsSchema: (currency) => SETTINGS[currency],
  secrets: [{ name: 'notify_secret', generated: true }],
  notifies: true,
  // A bank account takes money whatever the server's configuration: only a real payment pays an order.
  acceptsOrders: () => true,
  settles: () => true,
  collectionFollowsUp: () => false,
  createCollection: (_channel, order) => ({ payUrl: `/pay/${encodeURIComponent(order.tradeNo)}` }),
  payInstructions(channel, order) {
    const settings = settingsOf(channel);
    const currency = channel.currency as Currency;
    const fields: PayInstructions['fields'] = [
      { name: 'bank', value: settings.bank },
      ...(settings.branch ? [{ name: 'branch' as const, value: settings.branch }] : []),
      { name: 'account_name', value: settings.account_name },
      { name: 'account_no', value: settings.account_no },
      ...(settings.ifsc ? [{ name: 'ifsc' as const, value: settings.ifsc }] : []),
      ...(settings.pix_key ? [{ name: 'pix_key' as const, value: settings.pix_key }] : []),
      ...(settings.upi_id ? [{ name: 'upi_id' as const, value: settings.upi_id }] : []),
    ];
    const qr = paymentQr(currency, settings, order);
    return { reference: order.tradeNo, fields, ...(qr ? { qr } : {}) };
  },
  // The bank has no API to ask: our order (paid by a notification or a statement) is what it knows.
  queryCollection: (_channel, tradeNo, ports) => ourCollectionReport(tradeNo, ports),
  submitPayout: () => {
    throw new Error('A bank transfer channel takes collections only.');
  },
  queryPayout: async () => undefined,
  refundsByOperator: true,
  // The payer's money came by their own bank transfer: the platform's staff send it back by hand, so a
  // refund waits in the operator's queue (npm run ops -- refund:complete), like a manual payout.
  submitRefund: () => ({ supported: true, byOperator: true }),
  parseNotification: (channel, { headers, rawBody }, secrets) =>
    parse(channel, rawBody, headers['x-channel-signature'], secrets.notify_secret ?? ''),
  // Nothing is sent anywhere when an order is made: another channel may always take it.
  isSafeToRetryElsewhere: () => true,
  isChannelFault: isChannelFaultByDefault,
  queues: [],
  runJob: async () => {},
};
